import { resolve } from 'node:path';

/** Log levels the service accepts. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** A log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Every setting of the service, parsed once from the environment and frozen. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  adminToken: string | undefined;
  adminEmail: string;
  logLevel: LogLevel;
  rateLimit: { max: number; windowMs: number };
  logRetentionDays: number;
  quotas: { botsPerWorkspace: number | null };
  /** Trust X-Forwarded-* headers (only behind a reverse proxy you run). */
  trustProxy: boolean;
}

/** One setting that could not be parsed, with why. */
export interface ConfigIssue {
  variable: string;
  message: string;
}

/** Thrown when the environment holds bad values; lists every one of them. */
export class ConfigError extends Error {
  readonly issues: ConfigIssue[];
  constructor(issues: ConfigIssue[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i.variable}: ${i.message}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/** The environment variables the service reads, with their meaning (for docs and `parley --help`). */
export const CONFIG_VARIABLES: Record<string, string> = {
  PORT: 'TCP port to listen on (default 3000)',
  HOST: 'address to listen on (default 127.0.0.1)',
  PARLEY_DATA_DIR: 'data folder: SQLite database, bootstrap.json, blobs (default ./data)',
  PARLEY_DATABASE_URL: 'unset = SQLite file in the data dir; postgres://… = PostgreSQL',
  PARLEY_PUBLIC_URL: 'base of URLs the API hands out (default http://HOST:PORT)',
  PARLEY_ADMIN_TOKEN:
    "the bootstrap owner's personal access token (at least 32 characters; default: generated)",
  PARLEY_ADMIN_EMAIL: "the bootstrap owner's e-mail (default admin@parley.local)",
  PARLEY_LOG_LEVEL: `log level: ${LOG_LEVELS.join(', ')} (default info)`,
  PARLEY_RATE_LIMIT_MAX: 'requests per token (or per IP without one) per window (default 1000; 0 disables)',
  PARLEY_RATE_LIMIT_WINDOW_MS: 'rate limit window in milliseconds (default 60000)',
  PARLEY_LOG_RETENTION_DAYS: 'days of bot request logs kept (default 7)',
  PARLEY_QUOTA_BOTS_PER_WORKSPACE: 'most bots a workspace may have (default unlimited)',
  PARLEY_TRUST_PROXY:
    'true behind a reverse proxy, to take client addresses from X-Forwarded-For (default false)',
};

type Env = Record<string, string | undefined>;

/**
 * Parses the settings from `env`, listing every bad value at once.
 * @example loadConfig(process.env).port // 3000
 */
export function loadConfig(env: Env, cwd: string = process.cwd()): Readonly<Config> {
  const issues: ConfigIssue[] = [];
  const blank = (name: string) => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = blank(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw) || n < min || n > max) {
      issues.push({ variable: name, message: `"${raw}" must be an integer from ${min} to ${max}` });
      return fallback;
    }
    return n;
  };

  const port = integer('PORT', 3000, 0, 65535);
  const host = blank('HOST') ?? '127.0.0.1';
  if (/\s/.test(host)) issues.push({ variable: 'HOST', message: `"${host}" is not a host name or address` });
  const dataDir = resolve(cwd, blank('PARLEY_DATA_DIR') ?? './data');

  const databaseUrl = blank('PARLEY_DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/.+/.test(databaseUrl)) {
    issues.push({
      variable: 'PARLEY_DATABASE_URL',
      message: 'must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)',
    });
  }

  let publicUrl = blank('PARLEY_PUBLIC_URL');
  if (publicUrl !== undefined) {
    try {
      const url = new URL(publicUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
      if (url.search || url.hash) throw new Error('query');
      publicUrl = url.toString().replace(/\/$/, '');
    } catch {
      issues.push({
        variable: 'PARLEY_PUBLIC_URL',
        message: `"${publicUrl}" must be an http(s) URL without query or fragment`,
      });
    }
  }
  const displayHost =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;

  const adminToken = blank('PARLEY_ADMIN_TOKEN');
  if (
    adminToken !== undefined &&
    (adminToken.length < 32 || adminToken.length > 200 || /\s/.test(adminToken))
  ) {
    issues.push({ variable: 'PARLEY_ADMIN_TOKEN', message: 'must be 32 to 200 characters without spaces' });
  }
  const adminEmail = blank('PARLEY_ADMIN_EMAIL') ?? 'admin@parley.local';
  if (!/^[^\s@]+@[^\s@]+$/.test(adminEmail)) {
    issues.push({ variable: 'PARLEY_ADMIN_EMAIL', message: `"${adminEmail}" is not an e-mail address` });
  }

  const rawLevel = (blank('PARLEY_LOG_LEVEL') ?? blank('LOG_LEVEL') ?? 'info').toLowerCase();
  const logLevel = (LOG_LEVELS as readonly string[]).includes(rawLevel) ? (rawLevel as LogLevel) : 'info';
  if (logLevel !== rawLevel) {
    issues.push({
      variable: 'PARLEY_LOG_LEVEL',
      message: `"${rawLevel}" must be one of ${LOG_LEVELS.join(', ')}`,
    });
  }

  const rateMax = integer('PARLEY_RATE_LIMIT_MAX', 1000, 0, 1_000_000_000);
  const rateWindow = integer('PARLEY_RATE_LIMIT_WINDOW_MS', 60_000, 100, 86_400_000);
  const logRetentionDays = integer('PARLEY_LOG_RETENTION_DAYS', 7, 1, 3650);
  const botQuotaRaw = blank('PARLEY_QUOTA_BOTS_PER_WORKSPACE');
  const botsPerWorkspace =
    botQuotaRaw === undefined ? null : integer('PARLEY_QUOTA_BOTS_PER_WORKSPACE', 0, 1, 1_000_000);

  const rawTrust = (blank('PARLEY_TRUST_PROXY') ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0'].includes(rawTrust)) {
    issues.push({ variable: 'PARLEY_TRUST_PROXY', message: `"${rawTrust}" must be true or false` });
  }
  const trustProxy = rawTrust === 'true' || rawTrust === '1';

  if (issues.length > 0) throw new ConfigError(issues);
  return Object.freeze({
    port,
    host,
    dataDir,
    databaseUrl,
    publicUrl: publicUrl ?? `http://${displayHost}:${port}`,
    adminToken,
    adminEmail,
    logLevel,
    rateLimit: Object.freeze({ max: rateMax, windowMs: rateWindow }),
    logRetentionDays,
    quotas: Object.freeze({ botsPerWorkspace }),
    trustProxy,
  });
}
