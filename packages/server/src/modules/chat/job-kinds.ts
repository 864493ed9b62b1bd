import Type from 'typebox';
import type { JobBackoff } from '../../jobs/registry.js';
import type { ChatHandoffWaitJob, ChatReplyJob, ChatWebhookJob } from './contract.js';

/** Kind of the durable job that answers a user's message in knowledge mode. */
export const CHAT_REPLY_JOB = 'chat_reply';
/** Kind of the durable job that POSTs a conversation event to a webhook-mode bot. */
export const CHAT_WEBHOOK_JOB = 'chat_webhook';
/** Kind of the durable job that ends a visitor's wait for a person when nobody came (run at the wait's end). */
export const CHAT_HANDOFF_WAIT_JOB = 'chat_handoff_wait';

declare module '../../jobs/registry.js' {
  interface JobPayloads {
    [CHAT_REPLY_JOB]: ChatReplyJob;
    [CHAT_WEBHOOK_JOB]: ChatWebhookJob;
    [CHAT_HANDOFF_WAIT_JOB]: ChatHandoffWaitJob;
  }
}

const Id = Type.String({ minLength: 1 });

/** Schema of a `chat_reply` payload ({@link ChatReplyJob}). */
export const ChatReplyPayload = Type.Object({ botId: Id, conversationId: Id, messageId: Id });

/** Schema of a `chat_webhook` payload ({@link ChatWebhookJob}): the event's own fields travel as they are. */
export const ChatWebhookPayload = Type.Object({
  botId: Id,
  event: Type.Object({
    id: Id,
    type: Type.Union([
      Type.Literal('message_created'),
      Type.Literal('event_created'),
      Type.Literal('conversation_created'),
      Type.Literal('user_created'),
      Type.Literal('conversation.handoff_requested'),
    ]),
    createdAt: Type.String(),
    botId: Id,
  }),
  to: Type.Optional(Type.Literal('handoff')),
});

/** Schema of a `chat_handoff_wait` payload ({@link ChatHandoffWaitJob}). */
export const ChatHandoffWaitPayload = Type.Object({ botId: Id, conversationId: Id, waitingSince: Id });

/** Attempts of a `chat_reply` job (the responder is asked again after a transient failure). */
export const CHAT_REPLY_MAX_ATTEMPTS = 3;

/** Backoff between attempts of the chat jobs: short, a user is waiting. */
export const CHAT_JOB_BACKOFF: JobBackoff = { baseMs: 500, maxMs: 300_000 };

/** How often an idle chat worker looks for work (a reply should start soon after its message). */
export const CHAT_WORKERS_POLL_MS = 200;
