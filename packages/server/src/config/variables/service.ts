import Type from 'typebox';

/** Log levels the service accepts. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** True for an absolute http(s) URL without query or fragment (the base of the URLs the API hands out). */
export function isBaseUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash;
  } catch {
    return false;
  }
}

/**
 * The service's own settings: where it listens, its data, its first owner, logs and rate limits.
 * Every entry is one environment variable (see schema.ts for the extra keywords `x-…`).
 */
export const SERVICE_VARIABLES = {
  PORT: Type.Integer({ minimum: 0, maximum: 65_535, default: 3000, description: 'TCP port' }),
  HOST: Type.String({
    pattern: '^\\S+$',
    default: '127.0.0.1',
    description: 'listen address (`0.0.0.0` to expose it)',
    'x-accepts': 'host name or address',
    'x-invalid': '"{value}" is not a host name or address',
  }),
  PARLEY_DATA_DIR: Type.String({
    default: './data',
    description: 'data folder: SQLite database, `bootstrap.json`, file bytes in `blobs/` (without S3)',
    'x-accepts': 'path, relative to the working directory or absolute',
  }),
  PARLEY_DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://.+',
      description: 'unset = SQLite file `parley.db` in the data folder; `postgres://…` = PostgreSQL',
      'x-accepts': '`postgres://…` or `postgresql://…` URL',
      'x-invalid':
        'must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)',
    }),
  ),
  PARLEY_REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://.+',
      description:
        'unset = rate limits counted in PostgreSQL (or in memory on SQLite); `redis://…` = counted in that Redis',
      'x-accepts': '`redis://…` or `rediss://…` URL',
      'x-invalid':
        'must be a redis:// or rediss:// URL (leave it unset to count rate limits in the database)',
    }),
  ),
  PARLEY_PUBLIC_URL: Type.Optional(
    Type.Refine(
      Type.String({
        description: 'base of the URLs the API hands out (set it behind a proxy)',
        'x-default': '`http://HOST:PORT`',
        'x-accepts': 'http(s) URL without query or fragment',
        'x-invalid': '"{value}" must be an http(s) URL without query or fragment',
      }),
      isBaseUrl,
    ),
  ),
  PARLEY_ADMIN_TOKEN: Type.Optional(
    Type.String({
      minLength: 32,
      maxLength: 200,
      pattern: '^\\S+$',
      description:
        "the bootstrap owner's personal access token; set on a later start, it is added as one more token of the owner",
      'x-default': 'generated',
      'x-accepts': 'no spaces',
      'x-invalid': 'must be {minLength} to {maxLength} characters without spaces',
    }),
  ),
  PARLEY_ADMIN_EMAIL: Type.String({
    pattern: '^[^\\s@]+@[^\\s@]+$',
    default: 'admin@parley.local',
    description: "the bootstrap owner's e-mail",
    'x-accepts': 'e-mail address',
    'x-invalid': '"{value}" is not an e-mail address',
  }),
  PARLEY_ADMIN_PASSWORD: Type.Optional(
    Type.String({
      minLength: 12,
      maxLength: 256,
      description:
        "the bootstrap owner's password for signing in (the Console), used on the first start only; change it later with `parley accounts set-password`",
      'x-default': 'generated, shown once',
      'x-invalid': 'must be {minLength} to {maxLength} characters',
    }),
  ),
  PARLEY_LOG_LEVEL: Type.Enum(LOG_LEVELS, {
    default: 'info',
    description: 'log level (JSON logs on stdout)',
    'x-alias': 'LOG_LEVEL',
  }),
  PARLEY_RATE_LIMIT_MAX: Type.Integer({
    minimum: 0,
    maximum: 1_000_000_000,
    default: 1000,
    description: 'requests per token (per IP without a token) per window on `/v1`; `0` disables',
  }),
  PARLEY_RATE_LIMIT_WINDOW_MS: Type.Integer({
    minimum: 100,
    maximum: 86_400_000,
    default: 60_000,
    description: 'rate limit window, in milliseconds',
  }),
  PARLEY_LOG_RETENTION_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3650,
    default: 7,
    description: 'days of per-bot request logs kept',
  }),
  PARLEY_JOB_LEASE_SECONDS: Type.Integer({
    minimum: 5,
    maximum: 3600,
    default: 60,
    description:
      'how long a background job (indexing, a bot reply, a webhook) stays claimed by a process without its heartbeat (renewed every third of it): after a process dies, another takes its jobs over this long after its last heartbeat',
  }),
};

/** How the service meets the network: proxies, connection and body time bounds, CORS. */
export const HTTP_VARIABLES = {
  PARLEY_TRUST_PROXY: Type.Boolean({
    default: false,
    description:
      '`true` behind a reverse proxy you run: client addresses (rate limits without a token) come from `X-Forwarded-For`',
  }),
  PARLEY_HEADERS_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 600_000,
    default: 20_000,
    description: 'milliseconds the headers of a request may take to arrive',
  }),
  PARLEY_BODY_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 3_600_000,
    default: 30_000,
    description:
      'milliseconds the whole body of an ordinary request may take to arrive; past it the answer is 408 `OperationTimeout` and the connection closes (a body dripping in a byte at a time holds nothing)',
  }),
  PARLEY_UPLOAD_TIMEOUT_MS: Type.Integer({
    minimum: 10_000,
    maximum: 7 * 86_400_000,
    default: 3 * 3_600_000,
    description:
      'milliseconds the body of one file upload (the `uploadUrl` PUT) may take (the default is 3 h)',
  }),
  PARLEY_UPLOAD_MIN_BYTES: Type.Integer({
    minimum: 0,
    maximum: 1024 ** 3,
    default: 16 * 1024,
    description:
      'an upload body (`uploadUrl` PUT, resumable PATCH) that brings fewer bytes than this in any `PARLEY_UPLOAD_RATE_WINDOW_MS` is answered 408 `OperationTimeout` and its connection closed (`0`: no minimum); time the server itself spends writing does not count',
  }),
  PARLEY_UPLOAD_RATE_WINDOW_MS: Type.Integer({
    minimum: 100,
    maximum: 3_600_000,
    default: 30_000,
    description: 'the window of `PARLEY_UPLOAD_MIN_BYTES`, in milliseconds',
  }),
  PARLEY_MAX_UPLOADS_PER_URL: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 1,
    description:
      'upload bodies one `uploadUrl` or resumable upload URL may receive at once, in each process; one more answers 409 `ResourceLockedConflict`',
  }),
  PARLEY_MAX_UPLOADS_PER_ADDRESS: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    default: 16,
    description:
      'upload bodies one client address may send at once, in each process (the address from `X-Forwarded-For` with `PARLEY_TRUST_PROXY=true`); one more answers 429 `RateLimited` (`0`: no cap)',
  }),
  PARLEY_IDLE_TIMEOUT_MS: Type.Integer({
    minimum: 1000,
    maximum: 86_400_000,
    default: 60_000,
    description:
      'a connection silent this many milliseconds in both directions is closed (raised to twice the stream ping interval plus a second, so live streams stay open)',
  }),
  PARLEY_MAX_CONNECTIONS_PER_ADDRESS: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    default: 256,
    description:
      'open connections one client address may hold; more are closed at once (`0`: no cap, the default with `PARLEY_TRUST_PROXY=true`, where every connection comes from the proxy)',
  }),
  PARLEY_CORS_ORIGINS: Type.String({
    default: '*',
    description:
      'origins whose pages may call the Admin and Files APIs: `*` (any) or exact origins, comma-separated (`https://app.example.com,http://localhost:5173`); see [CORS](#browsers-on-other-origins-cors)',
    'x-accepts': '`*` or `scheme://host[:port]`, comma-separated',
  }),
};
