import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { hashPassword, newPassword } from './access/passwords.js';
import type { Config } from './config/config.js';
import { PRIVATE_DIR_MODE } from './data-dir.js';
import { isUniqueViolation } from './db/database.js';
import type { Database } from './db/schema.js';
import { ApiError } from './errors/errors.js';
import type { Services } from './services.js';

/** What the first start created: printed once and written to `<data dir>/bootstrap.json` (mode 0600). */
export interface BootstrapInfo {
  accountId: string;
  email: string;
  workspaceId: string;
  botId: string;
  /** The owner's personal access token; absent when the database was bootstrapped by another process. */
  token?: string;
  botAccessKey?: string;
  /** The owner's password, when this start generated it (absent when PARLEY_ADMIN_PASSWORD set it). */
  password?: string;
  apiUrl: string;
}

/** Outcome of `bootstrap`: whether this start created the first owner, workspace and bot. */
export interface BootstrapResult {
  created: boolean;
  info: Omit<BootstrapInfo, 'token' | 'botAccessKey' | 'password'> &
    Partial<Pick<BootstrapInfo, 'token' | 'botAccessKey' | 'password'>>;
  file?: string;
}

const META_KEY = 'bootstrap';

async function readMeta(
  db: Kysely<Database>,
): Promise<{ accountId: string; email: string; workspaceId: string; botId: string } | undefined> {
  const row = await db.selectFrom('meta').select('value').where('key', '=', META_KEY).executeTakeFirst();
  return row
    ? (JSON.parse(row.value) as { accountId: string; email: string; workspaceId: string; botId: string })
    : undefined;
}

/**
 * On an empty database, creates the owner account (with its password: PARLEY_ADMIN_PASSWORD, else a generated
 * one), a workspace, a demo bot and its bot access key in one transaction, and writes them to
 * `<data dir>/bootstrap.json` (mode 0600; the password only when generated). On later starts it reuses them;
 * a PARLEY_ADMIN_TOKEN not yet known is added as one more personal access token of the owner.
 */
export async function bootstrap(deps: {
  config: Config;
  db: Kysely<Database>;
  services: Services;
}): Promise<BootstrapResult> {
  const { config, db, services } = deps;
  const existing = await readMeta(db);
  if (existing) {
    if (config.adminToken)
      await services.identity.ensurePat(existing.accountId, config.adminToken, 'PARLEY_ADMIN_TOKEN');
    return { created: false, info: { ...existing, apiUrl: config.publicUrl } };
  }
  let info: BootstrapInfo;
  const generated = config.adminPassword === undefined ? newPassword() : undefined;
  // Hashed before the transaction, which should not wait on scrypt.
  const passwordHash = await hashPassword(config.adminPassword ?? generated ?? '');
  try {
    info = await db.transaction().execute(async (tx) => {
      const account = await services.identity.tx.createAccount(tx, config.adminEmail, 'Owner');
      await services.identity.tx.setPasswordHash(tx, account.id, passwordHash);
      const token = await services.identity.createToken(tx, {
        kind: 'pat',
        accountId: account.id,
        note: config.adminToken ? 'PARLEY_ADMIN_TOKEN' : 'bootstrap',
        ...(config.adminToken ? { value: config.adminToken } : {}),
      });
      const workspace = await services.identity.tx.createWorkspace(tx, account, 'Default workspace');
      const bot = await services.bots.createInTx(
        tx,
        workspace.id,
        account.id,
        {
          name: 'Demo bot',
          description: 'Created on first start; answers from its knowledge bases.',
          tags: { demo: 'true' },
        },
        { accountId: account.id, email: account.email },
      );
      const key = await services.identity.createToken(tx, { kind: 'bak', botId: bot.id, note: 'bootstrap' });
      const meta = { accountId: account.id, email: account.email, workspaceId: workspace.id, botId: bot.id };
      await tx
        .insertInto('meta')
        .values({ key: META_KEY, value: JSON.stringify(meta) })
        .execute();
      return {
        ...meta,
        token: token.value,
        botAccessKey: key.value,
        ...(generated ? { password: generated } : {}),
        apiUrl: config.publicUrl,
      };
    });
  } catch (error) {
    // Another process bootstrapped the same database at the same moment: use what it made. The clash can
    // surface as a raw unique violation (meta, token) or as the service's AlreadyExists (owner e-mail).
    const clash = isUniqueViolation(error) || (error instanceof ApiError && error.type === 'AlreadyExists');
    const other = clash ? await readMeta(db) : undefined;
    if (!other) throw error;
    return { created: false, info: { ...other, apiUrl: config.publicUrl } };
  }
  await mkdir(config.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = join(config.dataDir, 'bootstrap.json');
  await writeFile(file, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return { created: true, info, file };
}
