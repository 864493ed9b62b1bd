import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

const KEY = 'url_signing_secret';

/**
 * The secret that signs upload and download URLs: PARLEY_SIGNING_SECRET when set, else one generated on the
 * first start and kept in the database, so every process of a deployment shares it and restarts keep URLs valid.
 */
export async function loadSigningSecret(
  db: Kysely<Database>,
  configured: string | undefined,
): Promise<Buffer> {
  if (configured) return createHash('sha256').update(configured).digest();
  const existing = await db.selectFrom('meta').select('value').where('key', '=', KEY).executeTakeFirst();
  if (existing) return Buffer.from(existing.value, 'base64');
  const fresh = randomBytes(32).toString('base64');
  await db
    .insertInto('meta')
    .values({ key: KEY, value: fresh })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const stored = await db.selectFrom('meta').select('value').where('key', '=', KEY).executeTakeFirstOrThrow();
  return Buffer.from(stored.value, 'base64');
}
