import {
  AgentMessageBody,
  AgentMessageResponse,
  AgentTypingBody,
  BotConversationCountsResponse,
  BotConversationResponse,
  Empty,
  HandoffBody,
  HandoffResponse,
  ListBotConversationMessagesResponse,
  ListBotConversationsQuery,
  ListBotConversationsResponse,
  PageQuery,
} from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, operations } from '../../../http/operation.js';
import { empty, IdParam, pageBody } from '../../../http/route-helpers.js';
import type { ChatService } from '../contract.js';

/** Path parameters of one conversation of a bot. */
export const ConversationParams = Type.Object({
  id: IdParam.properties.id,
  conversationId: Type.String({ minLength: 1, maxLength: 200 }),
});

/**
 * Admin API routes of a bot's conversations inbox (`conversation.read`: every role that reads bots): the
 * conversations, most recent activity first, and each one's transcript; and human handoff
 * (`conversation.handoff`: developers and above): who answers a conversation, and a person's messages.
 */
export function inboxRoutes(app: FastifyInstance, { chat }: { chat: ChatService }) {
  const op = operations(app, { tags: ['bots'], security: ADMIN_SECURITY });
  op(
    BOT_OPERATIONS.listBotConversations,
    {
      description:
        "The bot's conversations that have a message (one opened without a word is not listed), most recent activity first, each with its latest message, message count, whether a reply got negative feedback or could not answer, who answers it (`state`) and its visitor. `feedback=negative` and `unanswered=true` keep only those; `state` keeps one handoff state (`pending`: oldest waiting first), `assignedTo=me` the caller's, `search` those with the words in a message or the visitor's name or e-mail.",
      params: IdParam,
      query: ListBotConversationsQuery,
      response: ListBotConversationsResponse,
    },
    async (req) => pageBody('conversations', await chat.listInbox(req.actor, req.params.id, req.query)),
  );
  op(
    BOT_OPERATIONS.getBotConversationCounts,
    {
      description:
        'How many conversations (with a message) each tab of the inbox desk holds: `waiting` (state pending), `mine` (assigned to the caller), `all`, `resolved`.',
      params: IdParam,
      response: BotConversationCountsResponse,
    },
    async (req) => ({ counts: await chat.inboxCounts(req.actor, req.params.id) }),
  );
  op(
    BOT_OPERATIONS.getBotConversation,
    {
      description: 'One conversation of the bot, as the inbox lists it.',
      params: ConversationParams,
      response: BotConversationResponse,
    },
    async (req) => ({
      conversation: await chat.getInboxConversation(req.actor, req.params.id, req.params.conversationId),
    }),
  );
  op(
    BOT_OPERATIONS.listBotConversationMessages,
    {
      description:
        "A conversation's transcript, oldest first: each message's author (visitor or bot) and text, and for the bot's replies their sources, answer mode (`not_found`…), retrieval details and feedback.",
      params: ConversationParams,
      query: Type.Object(PageQuery),
      response: ListBotConversationMessagesResponse,
    },
    async (req) =>
      pageBody(
        'messages',
        await chat.listInboxMessages(req.actor, req.params.id, req.params.conversationId, req.query),
      ),
  );
  op(
    BOT_OPERATIONS.getConversationHandoff,
    {
      description:
        'Who answers the conversation: `bot`, `pending` (the visitor waits for a person since `waitingSince`), `assigned` (to `assignedTo`) or `resolved` (the bot answers again), with when a person first replied and when it was resolved.',
      params: ConversationParams,
      response: HandoffResponse,
    },
    async (req) => ({
      handoff: await chat.getHandoff(req.actor, req.params.id, req.params.conversationId),
    }),
  );
  op(
    BOT_OPERATIONS.changeConversationHandoff,
    {
      description:
        'Changes who answers the conversation (developers and above): `request` (bot → pending), `take` (→ assigned to you), `assign` (→ assigned to `memberId`, a member who may answer conversations), `hand_back` (→ bot) or `resolve` (→ resolved). The visitor is told by a bot message and a `handoff_changed` signal; the bot answers nothing while the state is pending or assigned. 409 when the action does not apply to the state (e.g. `take` of a conversation already assigned, `hand_back` of one the bot answers).',
      params: ConversationParams,
      body: HandoffBody,
      response: HandoffResponse,
    },
    async (req) => ({
      handoff: await chat.changeHandoff(req.actor, req.params.id, req.params.conversationId, req.body),
    }),
  );
  op(
    BOT_OPERATIONS.createAgentMessage,
    {
      description:
        "A person's message in the conversation (developers and above), posted under their name (`metadata.agent.name`, author `agent` in the transcript). The conversation is theirs from then on: one the bot answered or that waited is taken over (the visitor is told); 409 when another person has it.",
      params: ConversationParams,
      body: AgentMessageBody,
      status: 201,
      response: AgentMessageResponse,
    },
    async (req) => ({
      message: await chat.postAsAgent(req.actor, req.params.id, req.params.conversationId, req.body),
    }),
  );
  op(
    BOT_OPERATIONS.setAgentTyping,
    {
      description:
        'Tells the visitor whether you type a reply (`typing: true` while typing, `false` once stopped or sent): the webchat shows "<your name> is typing" from a `typing_started` signal carrying `name` until `typing_stopped` or your message. Only in a conversation assigned to you (409 otherwise; 403 for roles that do not answer conversations). Send it at most every few seconds while typing; each call is one signal.',
      params: ConversationParams,
      body: AgentTypingBody,
      response: Empty,
    },
    async (req) => empty(chat.setAgentTyping(req.actor, req.params.id, req.params.conversationId, req.body)),
  );
}
