import type {
  HandoffState,
  InboxConversation,
  InboxCounts,
  InboxMessage,
  InboxSource,
  InboxVisitor,
  MessageFeedback,
  MessagePayload,
} from '@parley/protocol';
import { authorize } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import { errors } from '../../errors/errors.js';
import { type ChatContext, checkWorkspaceBot, checkWorkspaceConversation } from './context.js';
import type { ChatService } from './contract.js';
import { withCorrections } from './inbox-corrections.js';
import { chatPage, type ListOrder } from './records.js';
import type { MessageRow } from './repo.js';
import { chatRepo } from './repo.js';
import { HUMAN_ANSWER, type InboxRow } from './repo-inbox.js';

/** The longest preview of a conversation's latest message, in characters. */
const PREVIEW_CHARS = 200;

/** A message payload as plain text: its text, a card's title, a file's title or URL… */
export function payloadText(payload: MessagePayload): string {
  switch (payload.type) {
    case 'text':
      return payload.text;
    case 'markdown':
      return payload.markdown;
    case 'image':
      return payload.imageUrl;
    case 'audio':
      return payload.audioUrl;
    case 'video':
      return payload.videoUrl;
    case 'file':
      return payload.title ?? payload.fileUrl;
    case 'location':
      return payload.title ?? payload.address ?? `${payload.latitude}, ${payload.longitude}`;
    case 'card':
      return payload.title;
    case 'carousel':
      return payload.items.map((i) => i.title).join(' · ');
    case 'choice':
    case 'dropdown':
      // The question and what it offers: `Did you mean one of these? [Refunds · Warranty]`.
      return payload.options.length > 0
        ? `${payload.text} [${payload.options.map((o) => o.label).join(' · ')}]`
        : payload.text;
    case 'bloc':
      return payload.items.map(payloadText).join('\n');
  }
}

const parse = <T>(text: string | null | undefined): T | undefined =>
  text === null || text === undefined ? undefined : (JSON.parse(text) as T);

/** The sources a bot reply's metadata lists, as the inbox shows them (malformed entries left out). */
function sourcesOf(metadata: Record<string, unknown> | undefined): InboxSource[] | undefined {
  const list = metadata?.sources;
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((s: unknown): InboxSource[] => {
    const o = s as Partial<InboxSource> | null;
    if (typeof o?.fileId !== 'string' || typeof o.key !== 'string') return [];
    return [
      {
        fileId: o.fileId,
        key: o.key,
        ...(typeof o.pageNumber === 'number' ? { pageNumber: o.pageNumber } : {}),
        ...(typeof o.score === 'number' ? { score: o.score } : {}),
      },
    ];
  });
}

/** A string field of a JSON object, when it is a non-empty string (cut to `max` characters). */
function stringField(json: Record<string, unknown> | undefined, name: string, max = 500): string | undefined {
  const value = json?.[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : undefined;
}

/** What the desk shows of a conversation's visitor (none when a bot started it). */
function visitorOf(row: InboxRow): InboxVisitor | undefined {
  if (row.visitor_is_bot === 1) return undefined;
  const data = parse<Record<string, unknown> | null>(row.visitor_data) ?? undefined;
  const sent = parse<Record<string, unknown> | null>(row.visitor_metadata) ?? undefined;
  const name = row.visitor_name?.trim() || undefined;
  const email = row.visitor_email?.trim() || stringField(data, 'email', 320);
  const page = stringField(sent, 'page', 2000);
  const language = stringField(sent, 'language', 35);
  return {
    userId: row.created_by,
    ...(name ? { name } : {}),
    ...(email ? { email } : {}),
    ...(page ? { page } : {}),
    ...(language ? { language } : {}),
  };
}

/** An inbox row on the wire. */
function toInboxConversation(row: InboxRow): InboxConversation {
  const last = parse<MessagePayload>(row.last_payload);
  const question = parse<MessagePayload>(row.last_question);
  const visitor = visitorOf(row);
  return {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    messageCount: Number(row.message_count),
    ...(last && row.last_at
      ? {
          lastMessage: {
            text: payloadText(last).slice(0, PREVIEW_CHARS),
            isBot: Number(row.last_is_bot) === 1,
            createdAt: row.last_at,
          },
        }
      : {}),
    ...(question ? { lastQuestion: payloadText(question).slice(0, PREVIEW_CHARS) } : {}),
    negativeFeedback: Number(row.negative) === 1,
    unanswered: Number(row.unanswered) === 1,
    ...handoffOf(row),
    ...(visitor ? { visitor } : {}),
  };
}

/** Who answers an inbox conversation: its state, since when it waits, who has it. */
function handoffOf(row: InboxRow): Pick<InboxConversation, 'state' | 'waitingSince' | 'assignedTo'> {
  const state = row.handoff_state as HandoffState;
  return {
    state,
    ...(state === 'pending' && row.waiting_since ? { waitingSince: row.waiting_since } : {}),
    ...(state === 'assigned' && row.assigned_to
      ? { assignedTo: { accountId: row.assigned_to, name: row.assigned_name ?? '' } }
      : {}),
  };
}

/** A message row (with its author's name) as a transcript shows it. */
export function toInboxMessage(row: MessageRow & { user_name: string | null }): InboxMessage {
  const payload = JSON.parse(row.payload) as MessagePayload;
  const sources = row.is_bot === 1 ? sourcesOf(parse(row.metadata)) : undefined;
  const details = parse<Record<string, unknown>>(row.details);
  const feedback = parse<MessageFeedback>(row.feedback);
  return {
    id: row.id,
    createdAt: row.created_at,
    author: row.answer === HUMAN_ANSWER ? 'agent' : row.is_bot === 1 ? 'bot' : 'visitor',
    userId: row.user_id,
    ...(row.user_name ? { userName: row.user_name } : {}),
    text: payloadText(payload),
    payload: payload as Record<string, unknown>,
    ...(sources ? { sources } : {}),
    ...(row.answer ? { answer: row.answer } : {}),
    ...(details ? { details } : {}),
    ...(feedback ? { feedback } : {}),
  };
}

const BY_ACTIVITY: ListOrder<InboxRow, InboxConversation> = {
  sort: 'updatedAt:desc',
  key: (r) => [r.updated_at, r.id],
  wire: toInboxConversation,
};
/** The Waiting tab's order (state pending): the oldest waiting first. */
const LONGEST_WAITING: ListOrder<InboxRow, InboxConversation> = {
  sort: 'waitingSince:asc',
  key: (r) => [r.waiting_since ?? r.created_at, r.id],
  wire: toInboxConversation,
};

/** The account of a person calling (only members read conversations; another caller has no account). */
const accountOf = (actor: Actor): string => (actor.kind === 'member' ? actor.accountId : '');
const OLDEST_FIRST: ListOrder<MessageRow & { user_name: string | null }, InboxMessage> = {
  sort: 'createdAt:asc',
  key: (r) => [r.created_at, r.id],
  wire: toInboxMessage,
};

/**
 * The conversations inbox of the Admin API: a bot's owners read every conversation of the bot, with its
 * transcript, the sources and retrieval details of each bot reply, and the feedback given (`conversation.read`).
 */
export function chatInbox(
  ctx: Pick<ChatContext, 'db' | 'bots' | 'entries'>,
): Pick<ChatService, 'listInbox' | 'getInboxConversation' | 'listInboxMessages' | 'inboxCounts'> {
  const { db } = ctx;

  async function checkBot(actor: Actor, botId: string): Promise<void> {
    authorize(actor, 'conversation.read');
    await checkWorkspaceBot(ctx.bots, actor, botId);
  }

  async function conversation(actor: Actor, botId: string, id: string): Promise<InboxConversation> {
    await checkBot(actor, botId);
    const row = await chatRepo(db).inboxConversation(botId, id);
    if (!row) throw errors.notFound('Conversation', id);
    const [corrected] = await withCorrections(db, ctx.entries, actor.workspaceId, botId, [
      toInboxConversation(row),
    ]);
    return corrected as InboxConversation;
  }

  return {
    async listInbox(actor, botId, query) {
      await checkBot(actor, botId);
      const filter = {
        negative: query.feedback === 'negative',
        unanswered: query.unanswered === true,
        state: query.state,
        assignedTo: query.assignedTo === 'me' ? accountOf(actor) : query.assignedTo,
        search: query.search?.trim() || undefined,
      };
      const order = query.state === 'pending' ? LONGEST_WAITING : BY_ACTIVITY;
      const page = await chatPage(query, order, (q) =>
        chatRepo(db).inboxConversations({ botId, filter, ...q }),
      );
      return { ...page, items: await withCorrections(db, ctx.entries, actor.workspaceId, botId, page.items) };
    },

    async inboxCounts(actor, botId): Promise<InboxCounts> {
      await checkBot(actor, botId);
      return chatRepo(db).inboxCounts(botId, accountOf(actor));
    },

    getInboxConversation: conversation,

    async listInboxMessages(actor, botId, conversationId, query) {
      authorize(actor, 'conversation.read');
      await checkWorkspaceConversation(ctx, actor, botId, conversationId);
      return chatPage(query, OLDEST_FIRST, (q) =>
        chatRepo(db).inboxMessages({ botId, conversationId, ...q }),
      );
    },
  };
}
