import { MAX_QA_ENTRIES_PER_BOT, markdownLinkIssues, type QaEntry } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import { readPage } from '../../http/route-helpers.js';
import { newId } from '../../ids.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Embedder } from '../../search/types.js';
import { type AuditService, auditWho } from '../audit/service.js';
import type { BotsService } from '../bots/service.js';
import type { QaService } from './contract.js';
import { QA_EMBED_JOB } from './job-kinds.js';
import { answerSentences, wordingTerms } from './matching.js';
import { type QaEntryRow, qaRepo } from './repo.js';

/** What the entries use case is built from. */
export interface QaEntriesDeps {
  db: Kysely<Database>;
  clock: () => Date;
  audit: AuditService;
  bots: Pick<BotsService, 'get'>;
  jobs: Pick<JobQueue, 'enqueue'>;
  /** The embedder whose vectors the wordings get (null: none, entries are matched by words only). */
  embedder: Pick<Embedder, 'id'> | null;
}

/** The wordings as stored: spaces squeezed, trimmed, each once (case aside). */
function cleanQuestions(questions: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const q of questions) {
    const text = q.replace(/\s+/g, ' ').trim();
    if (!text || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    out.push(text);
  }
  return out;
}

/** 400 when the answer links elsewhere than http(s), mailto: or tel:, naming the first such link. */
function checkAnswer(answer: string): void {
  const bad = markdownLinkIssues(answer);
  if (bad.length === 0) return;
  const shown = (bad[0] ?? '').slice(0, 80);
  throw errors.invalidPayload(
    `The answer links to "${shown}": links and images may lead only to http(s), mailto: and tel: addresses`,
    [{ field: 'answer', message: `link "${shown}" is not http(s), mailto: or tel:` }],
  );
}

/** What an entry's search matches: its wordings, answer and tags, in lower case. */
const searchTextOf = (questions: string[], answer: string, tags: Record<string, string>) =>
  [...questions, answer, ...Object.entries(tags).map(([k, v]) => `${k}=${v}`)].join('\n').toLowerCase();

function toEntry(row: QaEntryRow, embedded: boolean): QaEntry {
  return {
    id: row.id,
    botId: row.bot_id,
    questions: JSON.parse(row.questions) as string[],
    answer: row.answer,
    tags: Object.fromEntries(Object.entries(JSON.parse(row.tags) as Record<string, string>)),
    enabled: row.enabled === 1,
    ...(row.knowledge_base_id ? { knowledgeBaseId: row.knowledge_base_id } : {}),
    embedded,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Listing, creating, reading, replacing and deleting a bot's Q&A entries (see {@link QaService}). */
export function qaEntries(deps: QaEntriesDeps): Omit<QaService, 'match' | 'answeredSince'> {
  const { db, audit } = deps;
  const now = () => deps.clock().toISOString();

  /** The bot (404 unless the actor sees it) and the right to `action` on its entries. */
  async function botFor(actor: Actor, botId: string, action: 'qa.read' | 'qa.write') {
    const bot = await deps.bots.get(actor, botId);
    authorize(actor, action);
    return bot;
  }

  async function load(botId: string, entryId: string): Promise<QaEntryRow> {
    const row = await qaRepo(db).byId(botId, entryId);
    if (!row) throw errors.notFound('Q&A entry', entryId);
    return row;
  }

  async function entriesOf(rows: QaEntryRow[]): Promise<QaEntry[]> {
    const embedded = deps.embedder
      ? await qaRepo(db).embeddedOf(
          rows.map((r) => r.id),
          deps.embedder.id,
        )
      : new Set<string>();
    return rows.map((r) => toEntry(r, embedded.has(r.id)));
  }

  async function checkKnowledgeBase(botId: string, id: string | null | undefined): Promise<void> {
    if (id && !(await qaRepo(db).knowledgeBaseOf(botId, id))) throw errors.notFound('Knowledge base', id);
  }

  /**
   * Writes an entry's wordings and its answer's sentences, counts the change, queues their embedding and records
   * the audit entry.
   */
  async function written(
    tx: Kysely<Database>,
    actor: Actor,
    row: QaEntryRow,
    questions: string[],
    action: 'CREATE_QA_ENTRY' | 'UPDATE_QA_ENTRY',
    botName: string,
  ): Promise<void> {
    const repo = qaRepo(tx);
    await repo.setWordings(
      row.id,
      row.bot_id,
      questions.map((text) => ({ text, terms: wordingTerms(text).join(' ') })),
      answerSentences(row.answer).map((text) => ({ text, terms: wordingTerms(text).join(' ') })),
    );
    await repo.bumpRevision(row.bot_id);
    if (deps.embedder) await deps.jobs.enqueue(QA_EMBED_JOB, { botId: row.bot_id, entryId: row.id }, { tx });
    await audit.record(tx, actor.workspaceId, auditWho(actor), {
      action,
      resourceId: row.id,
      resourceName: botName,
      value: { botId: row.bot_id, questions: questions.slice(0, 3) },
    });
  }

  return {
    async list(actor, botId, query) {
      await botFor(actor, botId, 'qa.read');
      const filter = {
        search: query.search?.trim().toLowerCase() || undefined,
        enabled: query.enabled,
        knowledgeBaseId: query.knowledgeBaseId,
      };
      const page = await readPage(query, {
        sort: 'id:asc',
        rows: (limit, after) => qaRepo(db).page(botId, filter, limit, after),
        toItem: (row: QaEntryRow) => row,
      });
      return { ...page, items: await entriesOf(page.items) };
    },

    async create(actor, botId, fields) {
      const bot = await botFor(actor, botId, 'qa.write');
      const questions = cleanQuestions(fields.questions);
      checkAnswer(fields.answer);
      await checkKnowledgeBase(botId, fields.knowledgeBaseId);
      if ((await qaRepo(db).count(botId)) >= MAX_QA_ENTRIES_PER_BOT) {
        throw errors.quotaExceeded(
          `A bot holds at most ${MAX_QA_ENTRIES_PER_BOT} Q&A entries; delete some before adding more`,
        );
      }
      const at = now();
      const tags = fields.tags ?? {};
      const row: QaEntryRow = {
        id: newId('qa'),
        bot_id: botId,
        knowledge_base_id: fields.knowledgeBaseId ?? null,
        questions: JSON.stringify(questions),
        answer: fields.answer,
        tags: JSON.stringify(tags),
        enabled: fields.enabled === false ? 0 : 1,
        search_text: searchTextOf(questions, fields.answer, tags),
        created_at: at,
        updated_at: at,
      };
      await db.transaction().execute(async (tx) => {
        await qaRepo(tx).insert(row);
        await written(tx, actor, row, questions, 'CREATE_QA_ENTRY', bot.name);
      });
      return toEntry(row, false);
    },

    async get(actor, botId, entryId) {
      await botFor(actor, botId, 'qa.read');
      const [entry] = await entriesOf([await load(botId, entryId)]);
      if (!entry) throw errors.notFound('Q&A entry', entryId);
      return entry;
    },

    async update(actor, botId, entryId, fields) {
      const bot = await botFor(actor, botId, 'qa.write');
      const before = await load(botId, entryId);
      const questions = cleanQuestions(fields.questions);
      checkAnswer(fields.answer);
      await checkKnowledgeBase(botId, fields.knowledgeBaseId);
      const tags = fields.tags ?? (JSON.parse(before.tags) as Record<string, string>);
      const row: QaEntryRow = {
        ...before,
        questions: JSON.stringify(questions),
        answer: fields.answer,
        tags: JSON.stringify(tags),
        enabled: fields.enabled === undefined ? before.enabled : fields.enabled ? 1 : 0,
        knowledge_base_id:
          fields.knowledgeBaseId === undefined ? before.knowledge_base_id : fields.knowledgeBaseId,
        search_text: searchTextOf(questions, fields.answer, tags),
        updated_at: now(),
      };
      // The answer's sentences are compared with questions too: a new answer is embedded again.
      const sameWordings = before.questions === row.questions && before.answer === row.answer;
      await db.transaction().execute(async (tx) => {
        const { id: _id, bot_id: _bot, created_at: _created, ...values } = row;
        await qaRepo(tx).update(entryId, values);
        if (sameWordings) {
          await qaRepo(tx).bumpRevision(botId);
          await audit.record(tx, actor.workspaceId, auditWho(actor), {
            action: 'UPDATE_QA_ENTRY',
            resourceId: entryId,
            resourceName: bot.name,
            value: { botId, questions: questions.slice(0, 3) },
          });
        } else {
          await written(tx, actor, row, questions, 'UPDATE_QA_ENTRY', bot.name);
        }
      });
      const [entry] = await entriesOf([row]);
      return entry ?? toEntry(row, false);
    },

    async delete(actor, botId, entryId) {
      const bot = await botFor(actor, botId, 'qa.write');
      await load(botId, entryId);
      await db.transaction().execute(async (tx) => {
        await qaRepo(tx).delete(entryId);
        await qaRepo(tx).bumpRevision(botId);
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'DELETE_QA_ENTRY',
          resourceId: entryId,
          resourceName: bot.name,
          value: { botId },
        });
      });
    },
  };
}
