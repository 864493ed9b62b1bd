import type { Kysely, Selectable } from 'kysely';
import { keysetPage } from '../../db/keyset.js';
import type { Database } from '../../db/schema.js';
import type { IntegrationsTable } from '../../db/tables/bots.js';
import type { Cursor } from '../../http/pagination.js';

/** Integration row. */
export type IntegrationRow = Selectable<IntegrationsTable>;

/** An installation of an integration on a bot, with the integration's name. */
export interface InstallationRow {
  bot_id: string;
  integration_id: string;
  installed_at: string;
  name: string;
}

/** Queries of integrations and their installations on bots. */
export interface IntegrationsRepo {
  insert(row: IntegrationRow): Promise<void>;
  byId(workspaceId: string, id: string): Promise<IntegrationRow | undefined>;
  /** `limit + 1` integrations of a workspace after the cursor, by id. */
  list(workspaceId: string, limit: number, after: Cursor | undefined): Promise<IntegrationRow[]>;
  delete(id: string): Promise<void>;
  install(botId: string, integrationId: string, at: string): Promise<void>;
  installation(botId: string, integrationId: string): Promise<Omit<InstallationRow, 'name'> | undefined>;
  /** The integrations installed on a bot, oldest installation first. */
  installationsOf(botId: string): Promise<InstallationRow[]>;
  uninstall(botId: string, integrationId: string): Promise<void>;
}

/** The integrations queries over a database or a transaction. */
export function integrationsRepo(db: Kysely<Database>): IntegrationsRepo {
  return {
    insert: async (row) => {
      await db.insertInto('integrations').values(row).execute();
    },
    byId: (workspaceId, id) =>
      db
        .selectFrom('integrations')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst(),
    list: (workspaceId, limit, after) =>
      keysetPage(
        db.selectFrom('integrations').selectAll().where('workspace_id', '=', workspaceId),
        { id: 'id', direction: 'asc' },
        { limit, after },
      ),
    delete: async (id) => {
      await db.deleteFrom('integrations').where('id', '=', id).execute();
    },
    install: async (botId, integrationId, at) => {
      await db
        .insertInto('installations')
        .values({ bot_id: botId, integration_id: integrationId, installed_at: at })
        .execute();
    },
    installation: (botId, integrationId) =>
      db
        .selectFrom('installations')
        .selectAll()
        .where('bot_id', '=', botId)
        .where('integration_id', '=', integrationId)
        .executeTakeFirst(),
    installationsOf: (botId) =>
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
    uninstall: async (botId, integrationId) => {
      await db
        .deleteFrom('installations')
        .where('bot_id', '=', botId)
        .where('integration_id', '=', integrationId)
        .execute();
    },
  };
}
