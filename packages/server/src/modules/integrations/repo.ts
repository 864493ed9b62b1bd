import type { Kysely, Selectable } from 'kysely';
import type { Database, IntegrationsTable } from '../../db/schema.js';
import type { Cursor } from '../../http/pagination.js';

/** Integration row. */
export type IntegrationRow = Selectable<IntegrationsTable>;

/** Queries of integrations and their installations on bots. */
export function integrationsRepo(db: Kysely<Database>) {
  return {
    insert: (row: IntegrationRow) => db.insertInto('integrations').values(row).execute(),
    byId: (workspaceId: string, id: string) =>
      db
        .selectFrom('integrations')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst(),
    list: (workspaceId: string, limit: number, after: Cursor | undefined) => {
      let q = db.selectFrom('integrations').selectAll().where('workspace_id', '=', workspaceId);
      if (after) q = q.where('id', '>', after.id);
      return q
        .orderBy('id', 'asc')
        .limit(limit + 1)
        .execute();
    },
    delete: (id: string) => db.deleteFrom('integrations').where('id', '=', id).execute(),
    install: (botId: string, integrationId: string, at: string) =>
      db
        .insertInto('installations')
        .values({ bot_id: botId, integration_id: integrationId, installed_at: at })
        .execute(),
    installation: (botId: string, integrationId: string) =>
      db
        .selectFrom('installations')
        .selectAll()
        .where('bot_id', '=', botId)
        .where('integration_id', '=', integrationId)
        .executeTakeFirst(),
    installationsOf: (botId: string) =>
      db
        .selectFrom('installations')
        .innerJoin('integrations', 'integrations.id', 'installations.integration_id')
        .select([
          'installations.bot_id',
          'installations.integration_id',
          'installations.installed_at',
          'integrations.name',
        ])
        .where('installations.bot_id', '=', botId)
        .orderBy('installations.installed_at')
        .execute(),
    uninstall: (botId: string, integrationId: string) =>
      db
        .deleteFrom('installations')
        .where('bot_id', '=', botId)
        .where('integration_id', '=', integrationId)
        .execute(),
  };
}
