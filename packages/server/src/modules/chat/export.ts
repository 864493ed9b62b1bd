import type { ConversationExportQuery, InboxMessage } from '@parley/protocol';
import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import type { Cursor } from '../../http/pagination.js';
import { type ChatContext, checkWorkspaceBot } from './context.js';
import type { ChatService, ConversationExport } from './contract.js';
import { toHandoff } from './handoff.js';
import { toInboxMessage } from './inbox.js';
import { type ConversationRow, chatRepo } from './repo.js';
import { inboxQueries } from './repo-inbox.js';

/** Conversations, and messages of one, read per query while an export streams. */
const PAGE = 200;

/** The columns of the CSV export, one row per message. */
export const EXPORT_CSV_COLUMNS = [
  'conversation_id',
  'conversation_created_at',
  'message_id',
  'created_at',
  'author',
  'user_name',
  'answer',
  'text',
] as const;

/**
 * A CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; a text a spreadsheet would run as
 * a formula (starting with =, +, -, @, a tab or a carriage return) gets a leading apostrophe.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** An ISO time of the query (`from`, `to`): 400 InvalidQuery naming it when it is no time. */
function timeOf(name: 'from' | 'to', value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw errors.invalidQuery(`${name} "${value.slice(0, 40)}" is not a date or time (ISO 8601)`, [
      { field: name, message: 'must be an ISO 8601 date or time' },
    ]);
  return new Date(ms).toISOString();
}

/** A conversation's messages, oldest first, page by page (without their retrieval details). */
async function* messagesOf(db: Kysely<Database>, botId: string, conversationId: string) {
  const queries = inboxQueries(db);
  let after: Cursor | undefined;
  for (;;) {
    const rows = await queries.inboxMessages({ botId, conversationId, limit: PAGE, after });
    for (const row of rows.slice(0, PAGE)) {
      const { details: _details, ...message } = toInboxMessage(row);
      yield message as InboxMessage;
    }
    const last = rows[PAGE - 1];
    if (rows.length <= PAGE || !last) return;
    after = { sort: 'createdAt:asc', value: last.created_at, id: last.id };
  }
}

/** The bot's conversations created in [from, to), oldest first, page by page. */
async function* conversationsOf(db: Kysely<Database>, botId: string, from?: string, to?: string) {
  let after: { at: string; id: string } | undefined;
  for (;;) {
    let query = db.selectFrom('chat_conversations').selectAll().where('bot_id', '=', botId);
    if (from) query = query.where('created_at', '>=', from);
    if (to) query = query.where('created_at', '<', to);
    if (after) {
      const { at, id } = after;
      query = query.where((eb) =>
        eb.or([eb('created_at', '>', at), eb.and([eb('created_at', '=', at), eb('id', '>', id)])]),
      );
    }
    const rows = await query.orderBy('created_at').orderBy('id').limit(PAGE).execute();
    yield* rows;
    const last = rows.at(-1);
    if (rows.length < PAGE || !last) return;
    after = { at: last.created_at, id: last.id };
  }
}

/** One conversation as the JSON export writes it: its times, owner, the visitor's e-mail and messages. */
async function conversationJson(db: Kysely<Database>, botId: string, row: ConversationRow): Promise<string> {
  const messages: InboxMessage[] = [];
  for await (const m of messagesOf(db, botId, row.id)) messages.push(m);
  const { conversationId: _id, ...handoff } = toHandoff(row);
  return JSON.stringify({
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    handoff,
    messages,
  });
}

/** The export's text, piece by piece: JSON `{botId, from?, to?, conversations: [...]}` or CSV rows. */
async function* exportBody(
  db: Kysely<Database>,
  botId: string,
  format: 'json' | 'csv',
  rows: AsyncIterable<ConversationRow>,
  window: { from?: string | undefined; to?: string | undefined },
): AsyncGenerator<string> {
  if (format === 'csv') {
    yield `${EXPORT_CSV_COLUMNS.join(',')}\r\n`;
    for await (const row of rows)
      for await (const m of messagesOf(db, botId, row.id))
        yield `${[row.id, row.created_at, m.id, m.createdAt, m.author, m.userName ?? '', m.answer ?? '', m.text].map(csvCell).join(',')}\r\n`;
    return;
  }
  const head = {
    botId,
    ...(window.from ? { from: window.from } : {}),
    ...(window.to ? { to: window.to } : {}),
  };
  yield `${JSON.stringify(head).slice(0, -1)},"conversations":[`;
  let first = true;
  for await (const row of rows) {
    yield `${first ? '' : ','}${await conversationJson(db, botId, row)}`;
    first = false;
  }
  yield ']}\n';
}

/**
 * Exports of a bot's conversations for its owners (`conversation.read`): all those created in a period, or
 * one, as JSON or CSV, read page by page while the answer streams (never the whole period in memory).
 */
export function chatExport(ctx: Pick<ChatContext, 'db' | 'bots'>): Pick<ChatService, 'exportConversations'> {
  const { db } = ctx;
  return {
    async exportConversations(
      actor: Actor,
      botId: string,
      query: ConversationExportQuery,
      conversationId?: string,
    ) {
      authorize(actor, 'conversation.read');
      await checkWorkspaceBot(ctx.bots, actor, botId);
      const format = query.format ?? 'json';
      const from = timeOf('from', query.from);
      const to = timeOf('to', query.to);
      if (from && to && from >= to)
        throw errors.invalidQuery('"from" must be before "to"', [
          { field: 'from', message: 'must be before to' },
        ]);
      let rows: AsyncIterable<ConversationRow>;
      if (conversationId !== undefined) {
        const row = await chatRepo(db).conversation(botId, conversationId);
        if (!row) throw errors.notFound('Conversation', conversationId);
        rows = (async function* () {
          yield row;
        })();
      } else rows = conversationsOf(db, botId, from, to);
      const day = (from ?? '').slice(0, 10);
      const name = conversationId ?? `conversations-${botId}${day ? `-${day}` : ''}`;
      const result: ConversationExport = {
        contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
        filename: `${name}.${format}`,
        body: exportBody(db, botId, format, rows, { from, to }),
      };
      return result;
    },
  };
}
