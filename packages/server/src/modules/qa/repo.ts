import { type Kysely, PostgresAdapter, type Selectable, sql } from 'kysely';
import { keysetPage } from '../../db/keyset.js';
import { likeContaining } from '../../db/like.js';
import type { Database } from '../../db/schema.js';
import type { QaEntriesTable, QaWordingsTable } from '../../db/tables/qa.js';
import type { Cursor } from '../../http/pagination.js';

/** A stored Q&A entry. */
export type QaEntryRow = Selectable<QaEntriesTable>;
/** A stored wording of an entry. */
export type QaWordingRow = Selectable<QaWordingsTable>;

/** What a list of a bot's entries may be narrowed to. */
export interface QaListFilter {
  /** Lower-case text the entry's wordings, answer or tags hold. */
  search?: string | undefined;
  enabled?: boolean | undefined;
  knowledgeBaseId?: string | undefined;
}

/** The SQL of the qa module: its three tables (entries, their wordings, each bot's revision). */
export function qaRepo(db: Kysely<Database>) {
  return {
    /** One page of a bot's entries, oldest first (ids are time-sortable). */
    page(botId: string, filter: QaListFilter, limit: number, after: Cursor | undefined) {
      let q = db.selectFrom('qa_entries').selectAll().where('bot_id', '=', botId);
      if (filter.search)
        q = q.where(sql<boolean>`search_text like ${likeContaining(filter.search)} escape '\\'`);
      if (filter.enabled !== undefined) q = q.where('enabled', '=', filter.enabled ? 1 : 0);
      if (filter.knowledgeBaseId) q = q.where('knowledge_base_id', '=', filter.knowledgeBaseId);
      return keysetPage(q, { id: 'id', direction: 'asc' }, { limit, after });
    },

    byId(botId: string, id: string): Promise<QaEntryRow | undefined> {
      return db
        .selectFrom('qa_entries')
        .selectAll()
        .where('bot_id', '=', botId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async count(botId: string): Promise<number> {
      const row = await db
        .selectFrom('qa_entries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('bot_id', '=', botId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** The entries (of these ids) whose every wording has a vector of `modelId`. */
    async embeddedOf(ids: string[], modelId: string): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('qa_wordings')
        .select('entry_id')
        .where('entry_id', 'in', ids)
        .groupBy('entry_id')
        .having(
          sql<boolean>`sum(case when model_id = ${modelId} and vector is not null then 0 else 1 end) = 0`,
        )
        .execute();
      return new Set(rows.map((r) => r.entry_id));
    },

    /** Whether a knowledge base of this id belongs to the bot (a read of the knowledge module's table). */
    async knowledgeBaseOf(botId: string, id: string): Promise<boolean> {
      const row = await db
        .selectFrom('knowledge_bases')
        .select('id')
        .where('bot_id', '=', botId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** When each of these entries of the bot was last saved (id → updated_at). */
    async savedAt(botId: string, ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('qa_entries')
        .select(['id', 'updated_at'])
        .where('bot_id', '=', botId)
        .where('id', 'in', [...ids])
        .execute();
      return new Map(rows.map((r) => [r.id, r.updated_at]));
    },

    insert(row: QaEntryRow) {
      return db.insertInto('qa_entries').values(row).execute();
    },

    update(id: string, values: Partial<QaEntryRow>) {
      return db.updateTable('qa_entries').set(values).where('id', '=', id).execute();
    },

    delete(id: string) {
      return db.deleteFrom('qa_entries').where('id', '=', id).execute();
    },

    /**
     * Replaces an entry's wordings and its answer's sentences (their vectors dropped: the `qa_embed` job writes
     * new ones). Wordings are stored at positions 0, 1, …, the answer's sentences at -1, -2, ….
     */
    async setWordings(
      entryId: string,
      botId: string,
      wordings: Array<{ text: string; terms: string }>,
      answer: Array<{ text: string; terms: string }> = [],
    ) {
      await db.deleteFrom('qa_wordings').where('entry_id', '=', entryId).execute();
      const rows = [
        ...wordings.map((w, position) => ({ ...w, position })),
        ...answer.map((w, n) => ({ ...w, position: -1 - n })),
      ];
      if (rows.length === 0) return;
      await db
        .insertInto('qa_wordings')
        .values(
          rows.map(({ text, terms, position }) => ({
            entry_id: entryId,
            position,
            bot_id: botId,
            text,
            terms,
            vector: null,
            model_id: null,
          })),
        )
        .execute();
    },

    /** An entry's wordings without a vector of `modelId`, in order. */
    unembedded(entryId: string, modelId: string) {
      return db
        .selectFrom('qa_wordings')
        .select(['position', 'text'])
        .where('entry_id', '=', entryId)
        .where((eb) =>
          eb.or([eb('model_id', 'is', null), eb('model_id', '!=', modelId), eb('vector', 'is', null)]),
        )
        .orderBy('position')
        .execute();
    },

    /** Stores a wording's vector, unless the wording changed since it was read. */
    setVector(entryId: string, position: number, text: string, vector: Buffer, modelId: string) {
      return db
        .updateTable('qa_wordings')
        .set({ vector, model_id: modelId })
        .where('entry_id', '=', entryId)
        .where('position', '=', position)
        .where('text', '=', text)
        .execute();
    },

    /** Entries of any bot with a wording lacking a vector of `modelId` (at most `limit`), for the sweep. */
    async stale(modelId: string, limit: number): Promise<Array<{ entryId: string; botId: string }>> {
      const rows = await db
        .selectFrom('qa_wordings')
        .select(['entry_id', 'bot_id'])
        .distinct()
        .where((eb) =>
          eb.or([eb('model_id', 'is', null), eb('model_id', '!=', modelId), eb('vector', 'is', null)]),
        )
        .limit(limit)
        .execute();
      return rows.map((r) => ({ entryId: r.entry_id, botId: r.bot_id }));
    },

    /**
     * Entries of any bot (after `afterId`, in id order, at most `limit`) with no answer sentence stored: saved
     * before answers' sentences were compared, or with an answer of no sentence long enough.
     */
    withoutAnswerSentences(afterId: string | undefined, limit: number) {
      let q = db
        .selectFrom('qa_entries as e')
        .select(['e.id', 'e.bot_id', 'e.answer'])
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('qa_wordings as w')
                .select('w.entry_id')
                .whereRef('w.entry_id', '=', 'e.id')
                .where('w.position', '<', 0),
            ),
          ),
        );
      if (afterId) q = q.where('e.id', '>', afterId);
      return q.orderBy('e.id').limit(limit).execute();
    },

    /**
     * Inside a transaction: stores the answer's sentences of an entry (positions -1, -2, …, no vector) if it still
     * has this answer and none stored, its row locked until commit on PostgreSQL so a save cannot interleave
     * (SQLite's writes are serial). Answers whether it stored them.
     */
    async addAnswerSentences(
      entryId: string,
      answer: string,
      sentences: Array<{ text: string; terms: string }>,
    ): Promise<boolean> {
      const q = db.selectFrom('qa_entries').select(['bot_id', 'answer']).where('id', '=', entryId);
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      const entry = await (postgres ? q.forUpdate() : q).executeTakeFirst();
      if (!entry || entry.answer !== answer || sentences.length === 0) return false;
      const stored = await db
        .selectFrom('qa_wordings')
        .select('entry_id')
        .where('entry_id', '=', entryId)
        .where('position', '<', 0)
        .executeTakeFirst();
      if (stored) return false;
      await db
        .insertInto('qa_wordings')
        .values(
          sentences.map(({ text, terms }, n) => ({
            entry_id: entryId,
            position: -1 - n,
            bot_id: entry.bot_id,
            text,
            terms,
            vector: null,
            model_id: null,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
      return true;
    },

    /** Counts a change of the bot's entries: every process's cached wordings of the bot are then stale. */
    bumpRevision(botId: string) {
      return db
        .insertInto('qa_revisions')
        .values({ bot_id: botId, revision: 1 })
        .onConflict((oc) =>
          oc.column('bot_id').doUpdateSet({ revision: sql<number>`qa_revisions.revision + 1` }),
        )
        .execute();
    },

    async revision(botId: string): Promise<number> {
      const row = await db
        .selectFrom('qa_revisions')
        .select('revision')
        .where('bot_id', '=', botId)
        .executeTakeFirst();
      return Number(row?.revision ?? 0);
    },

    /** The wordings of the bot's enabled entries, with the entry's answer: what a lookup compares with. */
    enabledWordings(botId: string) {
      return db
        .selectFrom('qa_wordings as w')
        .innerJoin('qa_entries as e', 'e.id', 'w.entry_id')
        .select(['w.entry_id', 'w.position', 'w.text', 'w.terms', 'w.vector', 'w.model_id', 'e.answer'])
        .where('w.bot_id', '=', botId)
        .where('e.enabled', '=', 1)
        .orderBy('w.entry_id')
        .orderBy('w.position')
        .execute();
    },
  };
}
