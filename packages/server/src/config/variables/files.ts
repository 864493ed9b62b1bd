import Type from 'typebox';

/** True for an S3 key prefix that is relative and has no `..` segment. */
export function isRelativePrefix(value: string): boolean {
  return !value.startsWith('/') && !value.split('/').includes('..');
}

const HTTP_URL = '^https?://\\S+$';

/** Quotas, the Files API's URLs and where file bytes live (the data dir, or S3). */
export const FILES_VARIABLES = {
  PARLEY_QUOTA_BOTS_PER_WORKSPACE: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description: 'most bots a workspace may have (403 `QuotaExceeded` beyond)',
      'x-default': 'unlimited',
    }),
  ),
  PARLEY_QUOTA_FILE_STORAGE_BYTES: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        'most bytes of files a workspace may store (403 `QuotaExceeded` before bytes are accepted)',
      'x-default': 'unlimited',
    }),
  ),
  PARLEY_QUOTA_BOT_FILE_STORAGE_BYTES: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'most bytes of files one bot may store',
      'x-default': 'unlimited',
    }),
  ),
  PARLEY_QUOTA_CHAT_FILE_STORAGE_BYTES: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        "most bytes of files chat users may upload to a workspace's bots through the Chat API, counted apart from the quotas above (which count the team's files only)",
      'x-default': 'unlimited',
    }),
  ),
  PARLEY_DOWNLOAD_URL_TTL_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 7 * 86_400,
    default: 600,
    description: 'lifetime of the signed `url` of a private file, in seconds',
  }),
  PARLEY_UPLOAD_URL_TTL_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 7 * 86_400,
    default: 3600,
    description: 'lifetime of an `uploadUrl`, in seconds',
  }),
  PARLEY_SIGNING_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description:
        'secret of signed URLs, the same on every process; by default generated on first start and kept in the database, so all processes share it',
      'x-default': 'generated',
      'x-invalid': 'must be at least {minLength} characters',
    }),
  ),
  PARLEY_S3_BUCKET: Type.Optional(
    Type.String({
      pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
      description:
        'store file bytes in this S3 bucket instead of `<data dir>/blobs`; the other `PARLEY_S3_*` settings need it',
      'x-accepts': 'bucket name: 3–63 lowercase letters, digits, dots, dashes',
      'x-invalid': '"{value}" is not a bucket name (3-63 lowercase letters, digits, dots, dashes)',
    }),
  ),
  PARLEY_S3_REGION: Type.String({
    pattern: '^[a-z0-9-]+$',
    default: 'us-east-1',
    description: 'S3 region',
    'x-accepts': 'region name',
    'x-invalid': '"{value}" is not a region name',
  }),
  PARLEY_S3_ENDPOINT: Type.Optional(
    Type.String({
      pattern: HTTP_URL,
      description:
        'endpoint of an S3-compatible store (MinIO, Ceph, R2…); path-style addressing is then the default',
      'x-default': 'AWS',
      'x-accepts': 'http(s) URL',
      'x-invalid': '"{value}" must be an http(s) URL',
    }),
  ),
  PARLEY_S3_ACCESS_KEY_ID: Type.Optional(
    Type.String({
      description: 'S3 access key id; with `PARLEY_S3_SECRET_ACCESS_KEY` (both or neither)',
      'x-default': 'SDK chain',
    }),
  ),
  PARLEY_S3_SECRET_ACCESS_KEY: Type.Optional(
    Type.String({
      description: 'S3 secret access key; with `PARLEY_S3_ACCESS_KEY_ID` (both or neither)',
      'x-default': 'SDK chain',
    }),
  ),
  PARLEY_S3_FORCE_PATH_STYLE: Type.Optional(
    Type.Boolean({
      description: 'path-style bucket addressing',
      'x-default': '`true` with an endpoint, else `false`',
    }),
  ),
  PARLEY_S3_PREFIX: Type.Refine(
    Type.String({
      default: '',
      description: 'prefix of every object key',
      'x-accepts': 'relative key prefix, without `..`',
      'x-invalid': '"{value}" must be relative, without ..',
    }),
    isRelativePrefix,
  ),
};
