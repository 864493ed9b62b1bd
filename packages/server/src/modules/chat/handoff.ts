import {
  asksForPerson,
  BOT_ANSWERS_IN,
  type ConversationHandoff,
  type CreateMessageBody,
  DEFAULT_HANDOFF_KEYWORDS,
  HANDOFF_CHOICE_VALUE,
  type HandoffAction,
  type HandoffState,
  type Member,
} from '@parley/protocol';
import type { Kysely } from 'kysely';
import { authorize, can } from '../../access/policy.js';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import { ApiError, errors } from '../../errors/errors.js';
import { auditWho } from '../audit/service.js';
import { type BotWords, ENGLISH_WORDS, fillWords } from '../bots/index.js';
import { type ChatContext, workspaceChatBot } from './context.js';
import type { ChatBot, ChatService, PendingSignal } from './contract.js';
import { awaitPerson, holdConversation, postBotNotice } from './handoff-wait.js';
import { toInboxMessage } from './inbox.js';
import { signalTo, sizedJson, toPostedMessage } from './records.js';
import { type ConversationRow, chatRepo, touchConversationOf } from './repo.js';
import { newMessageRow, storeMessages } from './repo-contents.js';
import { HUMAN_ANSWER } from './repo-inbox.js';
import { conversationWords } from './words.js';

/** What the bot says when a visitor asks for a person (in English; a conversation's language: words/). */
export const HANDOFF_PENDING_TEXT = ENGLISH_WORDS.handoffWaiting;
/** What the bot says when a person takes the conversation. */
export const handoffAssignedText = (name: string, words: BotWords = ENGLISH_WORDS) =>
  fillWords(words.handoffJoined, { name });
/** What the bot says when the person leaves (hand back or resolve), or when nobody came. */
export const handoffBackText = (name: string | null, words: BotWords = ENGLISH_WORDS) =>
  name ? fillWords(words.handoffLeft, { name }) : words.handoffBack;

/** The chat user id a person of the workspace writes under in a bot's conversations. */
export function agentUserId(accountId: string): string {
  return `agent_${accountId}`;
}

/** Whether the bot answers a conversation in this state. */
export function botAnswers(state: string): boolean {
  return (BOT_ANSWERS_IN as readonly string[]).includes(state);
}

/** A conversation's handoff columns. */
type HandoffRow = Pick<
  ConversationRow,
  | 'id'
  | 'handoff_state'
  | 'waiting_since'
  | 'assigned_to'
  | 'assigned_name'
  | 'first_human_reply_at'
  | 'resolved_at'
  | 'handoff_requested_at'
  | 'visitor_email'
>;

/** A conversation's owner on the wire (Admin API). */
export function toHandoff(row: HandoffRow): ConversationHandoff {
  return {
    conversationId: row.id,
    state: row.handoff_state as HandoffState,
    ...(row.waiting_since && row.handoff_state === 'pending' ? { waitingSince: row.waiting_since } : {}),
    ...(row.assigned_to && row.handoff_state === 'assigned'
      ? { assignedTo: { accountId: row.assigned_to, name: row.assigned_name ?? '' } }
      : {}),
    ...(row.first_human_reply_at ? { firstHumanReplyAt: row.first_human_reply_at } : {}),
    ...(row.resolved_at ? { resolvedAt: row.resolved_at } : {}),
    ...(row.visitor_email ? { visitorEmail: row.visitor_email } : {}),
  };
}

/** The person a conversation goes to: their account and the name the visitor sees. */
export interface Agent {
  accountId: string;
  name: string;
}

/** The person a member is when they answer a conversation or write a note: their account and their name. */
export const agentOf = (m: Member): Agent => ({
  accountId: m.userId ?? m.id,
  name: m.displayName?.trim() || (m.email.split('@')[0] ?? m.email),
});

/**
 * A change of owner to store: the state after it and the columns it sets; `say`: the bot's words instead of the
 * usual (picked from the bot's words in the conversation's language).
 */
export interface Transition {
  state: HandoffState;
  agent: Agent | null;
  say?: { text: (words: BotWords) => string; metadata?: Record<string, unknown> };
}

const conflict = (message: string) => new ApiError('ResourceLockedConflict', message);

/** The state an action leads to from `row`'s, or 409 when the action makes no sense from there. */
function nextState(row: HandoffRow, action: HandoffAction, agent: Agent | null): Transition {
  const from = row.handoff_state;
  const refuse = () =>
    conflict(`The conversation is "${from}": the handoff action "${action}" does not apply to it`);
  switch (action) {
    case 'request':
      if (!botAnswers(from)) throw refuse();
      return { state: 'pending', agent: null };
    case 'take':
      if (from === 'assigned')
        throw conflict(
          `The conversation is already assigned to ${row.assigned_name ?? 'someone'}: use the action "assign" to hand it to another person`,
        );
      return { state: 'assigned', agent };
    case 'assign':
      if (from === 'assigned' && row.assigned_to === agent?.accountId)
        throw conflict(`The conversation is already assigned to ${agent?.name ?? 'that member'}`);
      return { state: 'assigned', agent };
    case 'hand_back':
    case 'resolve':
      if (botAnswers(from)) throw refuse();
      return { state: action === 'resolve' ? 'resolved' : 'bot', agent: null };
  }
}

/**
 * What the bot says to the visitor on a change of owner (the previous person named when leaving), in `words`
 * (the bot's in the conversation's language).
 */
function transitionText(row: HandoffRow, next: Transition, words: BotWords): string {
  if (next.state === 'pending') return words.handoffWaiting;
  if (next.state === 'assigned') return handoffAssignedText(next.agent?.name ?? 'a person', words);
  return handoffBackText(row.handoff_state === 'assigned' ? row.assigned_name : null, words);
}

/**
 * Stores a change of owner in `tx`, guarded by the state it was computed from (a concurrent change makes it
 * 409, nothing stored): the conversation's columns, the bot's message telling the visitor, the
 * `handoff_changed` signal and the audit record. A request for a person also queues the end of the wait and
 * the `conversation.handoff_requested` webhook (handoff-wait.ts). Answers the row after it.
 */
export async function applyTransition(
  tx: Kysely<Database>,
  ctx: Pick<ChatContext, 'now' | 'audit' | 'jobs' | 'clock'>,
  bot: ChatBot,
  row: HandoffRow,
  next: Transition,
  who: ReturnType<typeof auditWho>,
  emit: (s: PendingSignal) => void,
): Promise<HandoffRow> {
  // Wait for a transaction posting to the conversation (a bot reply) to end first: the change's time then
  // follows every reply that committed before it, so a transcript in time order shows no reply after it.
  await holdConversation(tx, bot.id, row.id);
  const at = ctx.now();
  const values = {
    handoff_state: next.state,
    updated_at: at,
    assigned_to: next.agent?.accountId ?? null,
    assigned_name: next.agent?.name ?? null,
    ...(next.state === 'pending'
      ? { waiting_since: at, handoff_requested_at: row.handoff_requested_at ?? at }
      : {}),
    ...(next.state === 'resolved' ? { resolved_at: at } : {}),
  };
  const changed = await chatRepo(tx).setHandoff(bot.id, row, values);
  if (!changed) throw conflict('The conversation changed hands meanwhile: read its handoff again and retry');
  const after: HandoffRow = { ...row, ...values };
  const conversationId = row.id;
  const handoff = { state: next.state, ...(next.agent ? { agentName: next.agent.name } : {}) };
  const words = await conversationWords(tx, bot, conversationId);
  const text = next.say ? next.say.text(words) : transitionText(row, next, words);
  await postBotNotice(
    tx,
    bot,
    conversationId,
    { text, metadata: { ...next.say?.metadata, handoff } },
    at,
    emit,
  );
  emit(signalTo(conversationId, { type: 'handoff_changed', data: { conversationId, ...handoff } }));
  if (next.state === 'pending') await awaitPerson(tx, ctx, bot, after, at);
  await ctx.audit.record(tx, bot.workspaceId, who, {
    action: 'UPDATE_CONVERSATION_HANDOFF',
    resourceId: conversationId,
    resourceName: bot.name,
    value: {
      from: row.handoff_state,
      to: next.state,
      ...(next.agent ? { assignedTo: next.agent.accountId } : {}),
    },
  });
  return after;
}

/**
 * Whether a visitor's message asks for a person: the webchat's "Talk to a person" button sends
 * `metadata.handoff = "request"`; otherwise a text naming one of the bot's `handoffKeywords` (webchat
 * configuration; the defaults when it names none).
 */
export function visitorAsksForPerson(
  bot: ChatBot,
  body: Pick<CreateMessageBody, 'payload' | 'metadata'>,
): boolean {
  if (body.metadata?.handoff === 'request') return true;
  const { payload } = body;
  if (payload.type === 'text' && payload.value === HANDOFF_CHOICE_VALUE) return true;
  const text =
    payload.type === 'text' ? payload.text : payload.type === 'markdown' ? payload.markdown : undefined;
  if (text === undefined) return false;
  return asksForPerson(text, bot.webchat.handoffKeywords ?? DEFAULT_HANDOFF_KEYWORDS);
}

/**
 * Human handoff on the Admin API: read and change who answers a conversation (`conversation.read` to read,
 * `conversation.handoff` to change it: developer and above), and a person's messages. Each change of owner
 * is guarded by the state it starts from, tells the visitor (a bot message and a `handoff_changed` signal)
 * and writes an audit record, in one transaction; the reply job posts nothing once it committed. The person
 * a conversation is assigned to may tell the visitor they type (a typing signal with their name).
 */
export function chatHandoff(
  ctx: Pick<ChatContext, 'db' | 'bots' | 'now' | 'withSignals' | 'audit' | 'members' | 'jobs' | 'clock'>,
): Pick<ChatService, 'getHandoff' | 'changeHandoff' | 'postAsAgent' | 'setAgentTyping' | 'botMayAnswer'> {
  const { db } = ctx;

  /** The bot (of the actor's workspace) and the conversation's row: 404 when either is unknown. */
  async function load(actor: Actor, botId: string, conversationId: string, db_: Kysely<Database> = db) {
    const bot = await workspaceChatBot(ctx.bots, actor, botId);
    const row = await chatRepo(db_).conversation(botId, conversationId);
    if (!row) throw errors.notFound('Conversation', conversationId);
    return { bot, row };
  }

  /** The member a conversation is assigned to: active, and allowed to answer conversations (400 otherwise). */
  async function assignee(actor: Actor, memberId: string | undefined): Promise<Agent> {
    if (!memberId)
      throw new ApiError('InvalidPayload', 'The action "assign" needs the memberId to assign to');
    const member = await ctx.members.getMember(actor, memberId);
    const allowed =
      member.status === 'active' &&
      can(
        {
          kind: 'member',
          accountId: member.userId ?? '',
          email: member.email,
          role: member.role,
          workspaceId: actor.workspaceId,
        },
        'conversation.handoff',
      );
    if (!allowed)
      throw new ApiError(
        'InvalidPayload',
        `Member "${memberId}" cannot answer conversations: only active members with the role developer or above can`,
      );
    return agentOf(member);
  }

  return {
    async getHandoff(actor, botId, conversationId) {
      authorize(actor, 'conversation.read');
      return toHandoff((await load(actor, botId, conversationId)).row);
    },

    async changeHandoff(actor, botId, conversationId, body) {
      authorize(actor, 'conversation.handoff');
      const { bot } = await load(actor, botId, conversationId);
      const agent =
        body.action === 'take'
          ? agentOf(await ctx.members.getMe(actor))
          : body.action === 'assign'
            ? await assignee(actor, body.memberId)
            : null;
      return ctx.withSignals(bot.id, async (tx, emit) => {
        const row = await chatRepo(tx).conversation(bot.id, conversationId);
        if (!row) throw errors.notFound('Conversation', conversationId);
        const next = nextState(row, body.action, agent);
        return toHandoff(await applyTransition(tx, ctx, bot, row, next, auditWho(actor), emit));
      });
    },

    async postAsAgent(actor, botId, conversationId, body) {
      authorize(actor, 'conversation.handoff');
      const { bot } = await load(actor, botId, conversationId);
      const agent = agentOf(await ctx.members.getMe(actor));
      const metadata = { ...body.metadata, agent: { name: agent.name } };
      const json = {
        payload: sizedJson('message payload', body.payload),
        metadata: sizedJson('message metadata', metadata),
      };
      return ctx.withSignals(bot.id, async (tx, emit) => {
        const repo = chatRepo(tx);
        let row: HandoffRow | undefined = await repo.conversation(bot.id, conversationId);
        if (!row) throw errors.notFound('Conversation', conversationId);
        if (row.handoff_state === 'assigned' && row.assigned_to !== agent.accountId)
          throw conflict(
            `The conversation is assigned to ${row.assigned_name ?? 'another person'}: take it over (action "assign" to yourself) before replying`,
          );
        // A person who writes takes the conversation: the bot is silent from this commit on.
        if (row.handoff_state !== 'assigned')
          row = await applyTransition(tx, ctx, bot, row, { state: 'assigned', agent }, auditWho(actor), emit);
        const at = ctx.now();
        const userId = agentUserId(agent.accountId);
        await repo.insertUserIfMissing({
          bot_id: bot.id,
          id: userId,
          name: agent.name,
          picture_url: null,
          data: null,
          user_key: null,
          is_bot: 1,
          created_at: at,
          updated_at: at,
        });
        const user = await repo.user(bot.id, userId);
        if (user?.is_bot !== 1)
          throw conflict(`The chat user id "${userId}" is taken by a visitor of this bot`);
        if (user.name !== agent.name)
          await repo.updateUser(bot.id, userId, { name: agent.name, updated_at: at });
        const message = newMessageRow(
          bot.id,
          conversationId,
          { userId, isBot: true, answer: HUMAN_ANSWER },
          json,
          at,
        );
        await storeMessages(tx, [message]);
        await touchConversationOf(tx, bot.id, conversationId, at);
        await repo.firstHumanReply(bot.id, conversationId, at);
        emit(
          signalTo(conversationId, {
            type: 'message_created',
            data: toPostedMessage(message, { payload: body.payload, metadata }),
          }),
        );
        return toInboxMessage({ ...message, user_name: agent.name });
      });
    },

    async setAgentTyping(actor, botId, conversationId, body) {
      authorize(actor, 'conversation.handoff');
      const { bot, row } = await load(actor, botId, conversationId);
      const agent = agentOf(await ctx.members.getMe(actor));
      if (row.handoff_state !== 'assigned' || row.assigned_to !== agent.accountId)
        throw conflict(
          row.handoff_state === 'assigned'
            ? `The conversation is assigned to ${row.assigned_name ?? 'another person'}: only they type in it`
            : `The conversation is "${row.handoff_state}": take it over before typing in it`,
        );
      const type = body.typing ? 'typing_started' : 'typing_stopped';
      const data = { conversationId, userId: agentUserId(agent.accountId), isBot: true, name: agent.name };
      await ctx.withSignals(bot.id, async (_tx, emit) => emit(signalTo(conversationId, { type, data })));
    },

    async botMayAnswer(botId, conversationId) {
      const row = await chatRepo(db).conversation(botId, conversationId);
      return row !== undefined && botAnswers(row.handoff_state);
    },
  };
}
