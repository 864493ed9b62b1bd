import { type Kysely, type Migration, sql } from 'kysely';

// What a file's committed bytes were uploaded as (media type, access policies), kept apart from the latest
// upsert's fields: a re-upsert keeps serving the old bytes, as they were published, until new ones commit.
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('files').addColumn('blob_content_type', 'text').execute();
    await db.schema.alterTable('files').addColumn('blob_access_policies', 'text').execute();
    await sql`update files set blob_content_type = content_type, blob_access_policies = access_policies
              where blob_key is not null and size is not null`.execute(db);
  },
};
