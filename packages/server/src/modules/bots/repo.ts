import { type Kysely, type Selectable, sql } from 'kysely';
import { queueGarbageOf } from '../../db/blob-garbage.js';
import { keysetPage } from '../../db/keyset.js';
import { likeContaining } from '../../db/like.js';
import type { Database } from '../../db/schema.js';
import type { BotsTable } from '../../db/tables/bots.js';
import { tagConditions } from '../../db/tag-filter.js';
import { tagRows } from '../../db/tags.js';
import type { Cursor } from '../../http/pagination.js';
import type { TagFilter } from '../../http/tag-filter.js';

/** Bot row. */
export type BotRow = Selectable<BotsTable>;

/** Sort columns of the list of bots. */
export const BOT_SORT_COLUMNS = { createdAt: 'created_at', updatedAt: 'updated_at', name: 'name' } as const;

/** What listBots filters and sorts by. */
export interface BotListQuery {
  workspaceId: string;
  dev?: boolean | undefined;
  nameContains?: string | undefined;
  tags?: TagFilter | undefined;
  sortField: keyof typeof BOT_SORT_COLUMNS;
  sortDirection: 'asc' | 'desc';
  limit: number;
  after?: Cursor | undefined;
}

/** Queries of bots and their tags. */
export interface BotsRepo {
  /** Stores a bot with its tags. */
  insert(row: BotRow, tags: Record<string, string>): Promise<void>;
  byId(workspaceId: string, id: string): Promise<BotRow | undefined>;
  byIdAnyWorkspace(id: string): Promise<BotRow | undefined>;
  /** The tags of each bot (an empty object for a bot without tags or unknown). */
  tagsOf(botIds: string[]): Promise<Map<string, Record<string, string>>>;
  update(id: string, values: Partial<BotRow>): Promise<void>;
  /** Sets tags (null removes one); tags not named stay. */
  setTags(id: string, tags: Record<string, string | null>): Promise<void>;
  /** Deletes a bot and all it holds; its files' blobs are queued for deletion first. */
  delete(id: string, at: string): Promise<void>;
  count(workspaceId: string): Promise<number>;
  /** `limit + 1` bots of a workspace after the cursor, filtered and sorted as asked. */
  list(q: BotListQuery): Promise<BotRow[]>;
}

/** The bots queries over a database or a transaction. */
export function botsRepo(db: Kysely<Database>): BotsRepo {
  const botTags = tagRows(db, 'bot_tags');
  return {
    insert: async (row, tags) => {
      await db.insertInto('bots').values(row).execute();
      await botTags.add(row.id, tags);
    },
    byId: (workspaceId, id) =>
      db
        .selectFrom('bots')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst(),
    byIdAnyWorkspace: (id) => db.selectFrom('bots').selectAll().where('id', '=', id).executeTakeFirst(),
    tagsOf: botTags.of,
    update: async (id, values) => {
      await db.updateTable('bots').set(values).where('id', '=', id).execute();
    },
    setTags: botTags.set,
    delete: async (id, at) => {
      // The bot's files go with it (cascade); their blobs are queued for deletion first.
      await queueGarbageOf(db, { botId: id }, at);
      await db.deleteFrom('request_logs').where('bot_id', '=', id).execute();
      await db.deleteFrom('bots').where('id', '=', id).execute();
    },
    count: async (workspaceId) =>
      Number(
        (
          await db
            .selectFrom('bots')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('workspace_id', '=', workspaceId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    list: (q) => {
      const column = BOT_SORT_COLUMNS[q.sortField];
      let query = db.selectFrom('bots').selectAll().where('workspace_id', '=', q.workspaceId);
      if (q.dev !== undefined) query = query.where('dev', '=', q.dev ? 1 : 0);
      if (q.nameContains) {
        const pattern = likeContaining(q.nameContains.toLowerCase());
        query = query.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
      }
      const tags = q.tags;
      if (tags) query = query.where((eb) => eb.and(tagConditions(eb, tags, 'bot_tags', 'bot_id', 'bots.id')));
      return keysetPage(query, { key: column, id: 'id', direction: q.sortDirection }, q);
    },
  };
}
