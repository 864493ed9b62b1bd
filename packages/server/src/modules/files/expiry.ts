import { MAX_FILE_EXPIRY_MS } from '@parley/protocol';
import { errors } from '../../errors/errors.js';
import type { FilesService } from './contract.js';
import type { FilesEnv } from './deps.js';
import { collectGarbage, removeFile } from './garbage.js';
import { filesRepo } from './repo.js';

function badExpiry(message: string) {
  return errors.invalidPayload(`expiresAt must be ${message}`, [
    { field: 'expiresAt', message: `must be ${message}` },
  ]);
}

/**
 * The expiry to store for an `expiresAt` the caller sent: null for none, else its ISO time, which must be in
 * the future and at most 90 days ahead of `now` (400 otherwise).
 */
export function checkExpiry(expiresAt: string | null | undefined, now: Date): string | null {
  if (expiresAt === undefined || expiresAt === null) return null;
  const t = Date.parse(expiresAt);
  const nowMs = now.getTime();
  if (t <= nowMs) throw badExpiry('in the future');
  if (t > nowMs + MAX_FILE_EXPIRY_MS) throw badExpiry('at most 90 days ahead');
  return new Date(t).toISOString();
}

/** The expiry of files (those whose expiresAt has passed go, with their blobs) and of their pending uploads. */
export function filesExpiry(env: FilesEnv): Pick<FilesService, 'expire' | 'expireUploads'> {
  return {
    async expireUploads(limit = 500) {
      const now = env.now();
      const repo = filesRepo(env.db);
      let failed = 0;
      for (const row of await repo.expiredUploads(now, limit)) {
        const reason = `upload_expired: no upload of the declared ${row.declared_size} bytes arrived before ${row.upload_expires_at}`;
        if (await repo.failExpiredUpload(row.id, row.upload_version, now, reason)) failed += 1;
      }
      return failed;
    },
    async expire(limit = 100) {
      const rows = await filesRepo(env.db).expired(env.now(), limit);
      for (const row of rows) await removeFile(env.db, row.id, env.now());
      await collectGarbage(env);
      return rows.length;
    },
  };
}
