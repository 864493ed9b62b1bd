import type { ChatSignal } from '@parley/protocol';
import { BlockedAddressError, type OutboundFetch } from '../../http/outbound.js';
import { newSecretId } from '../../ids.js';
import { defineJob, type KindDefinition, PermanentJobError } from '../../jobs/registry.js';
import { discardBody } from '../../outbound-body.js';
import type { BotsService } from '../bots/service.js';
import type { RequestRecord } from '../logs/service.js';
import { botUserId, type ChatService } from './contract.js';
import {
  CHAT_JOB_BACKOFF,
  CHAT_REPLY_JOB,
  CHAT_REPLY_MAX_ATTEMPTS,
  CHAT_WEBHOOK_JOB,
  ChatReplyPayload,
  ChatWebhookPayload,
} from './job-kinds.js';
import { webhookSignature } from './keys.js';
import type { KnowledgeResponder, Reply } from './reply-port.js';

/** What a bot without an answer engine says: an honest notice, never a made-up answer. */
export const NO_ANSWER_ENGINE_TEXT =
  'This bot has no answer engine configured, so it cannot answer messages yet. Please contact the site owner.';
/** What the bot says when every attempt to answer failed. */
export const REPLY_FAILED_TEXT = 'Sorry, the bot could not answer this message. Please try again later.';

/**
 * The `chat_reply` job: answers a user's message in knowledge mode. It signals typing, asks the
 * {@link KnowledgeResponder} (when none is wired, it posts {@link NO_ANSWER_ENGINE_TEXT}), posts each reply
 * message as the bot, sends the responder's `debug` details to adminKey sessions only, and stops typing.
 * The first reply's id ({@link newSecretId}, unguessable) is chosen before asking and handed to the
 * responder as `messageId`: its stream deltas carry it and its source links name it.
 * A message already answered is not answered again (retries and duplicates are harmless).
 */
export function chatReplyJob(deps: {
  chat: ChatService;
  bots: BotsService;
  responder?: KnowledgeResponder | undefined;
  timeoutMs: number;
}): KindDefinition<typeof CHAT_REPLY_JOB> {
  const { chat } = deps;
  return defineJob({
    kind: CHAT_REPLY_JOB,
    payload: ChatReplyPayload,
    timeoutMs: deps.timeoutMs,
    maxAttempts: CHAT_REPLY_MAX_ATTEMPTS,
    backoff: CHAT_JOB_BACKOFF,
    async run(job, { signal, log }) {
      const bot = await deps.bots.chatFacts(job.botId);
      if (bot?.status !== 'active' || bot.replyMode !== 'knowledge') return;
      const context = await chat.replyContext(bot.id, job.messageId);
      if (!context || context.answered) return;
      const typing = (type: 'typing_started' | 'typing_stopped'): ChatSignal => ({
        type,
        data: { conversationId: job.conversationId, userId: botUserId(bot.id), isBot: true },
      });
      await chat.emit(bot.id, job.conversationId, [{ signal: typing('typing_started') }]);
      // The first reply's id, chosen now: its stream deltas carry it and its source links name it.
      const replyId = newSecretId('msg');
      let streamed = false;
      try {
        let reply: Reply;
        if (!deps.responder) {
          reply = { messages: [{ payload: { type: 'text', text: NO_ANSWER_ENGINE_TEXT } }] };
        } else {
          // Deltas are stored in order; each waits for the one before, so the stream never reorders.
          let chain: Promise<void> = Promise.resolve();
          reply = await deps.responder.answer(
            {
              workspaceId: bot.workspaceId,
              botId: bot.id,
              conversationId: job.conversationId,
              message: context.message,
              history: context.history,
              signal,
              messageId: replyId,
            },
            {
              delta(text: string) {
                streamed = true;
                chain = chain.then(() =>
                  chat.emit(bot.id, job.conversationId, [
                    {
                      signal: {
                        type: 'message_stream_delta',
                        data: { id: replyId, conversationId: job.conversationId, delta: text },
                      },
                    },
                  ]),
                );
              },
            },
          );
          await chain;
        }
        const extra: Array<{ conversationId: string; signal: ChatSignal; adminOnly: boolean }> = [];
        if (streamed)
          extra.push({
            conversationId: job.conversationId,
            signal: {
              type: 'message_stream_complete',
              data: { id: replyId, conversationId: job.conversationId },
            },
            adminOnly: false,
          });
        if (reply.debug)
          extra.push({
            conversationId: job.conversationId,
            signal: {
              type: 'debug',
              data: {
                ...reply.debug,
                conversationId: job.conversationId,
                messageId: job.messageId,
                replyId,
              },
            },
            adminOnly: true,
          });
        extra.push({
          conversationId: job.conversationId,
          signal: typing('typing_stopped'),
          adminOnly: false,
        });
        await chat.postAsBot(
          bot,
          job.conversationId,
          // The first reply takes the id its stream deltas carried (clients swap the draft for it) and its
          // source links name.
          reply.messages.map((m, i) => ({ ...m, ...(i === 0 ? { id: replyId } : {}) })),
          { replyTo: job.messageId, extra },
        );
      } catch (error) {
        const signals: Array<{ signal: ChatSignal }> = [];
        if (streamed)
          signals.push({
            signal: {
              type: 'message_stream_abort',
              data: {
                id: replyId,
                conversationId: job.conversationId,
                reason: error instanceof Error ? error.message : 'error',
              },
            },
          });
        signals.push({ signal: typing('typing_stopped') });
        // The attempt's own failure is what counts (and is rethrown); this one is only logged.
        await chat
          .emit(bot.id, job.conversationId, signals)
          .catch((emitError: unknown) =>
            log.warn({ err: emitError }, 'could not signal the end of a failed reply attempt'),
          );
        throw error;
      }
    },
    async onFailed(job) {
      const bot = await deps.bots.chatFacts(job.botId);
      if (!bot) return;
      const context = await chat.replyContext(bot.id, job.messageId);
      if (!context || context.answered) return;
      await chat.postAsBot(
        bot,
        job.conversationId,
        [{ payload: { type: 'text', text: REPLY_FAILED_TEXT } }],
        {
          replyTo: job.messageId,
        },
      );
    },
  });
}

/**
 * The `chat_webhook` job: POSTs a {@link ChatWebhookJob}'s event as JSON to the bot's webhook URL, signed
 * `x-parley-signature: t=<unix s>,v1=<hex HMAC-SHA256("<t>.<body>", webhook secret)>`. Network errors,
 * timeouts, 429 and 5xx are retried with backoff; other 4xx end the job. Each attempt goes to the bot's log.
 */
export function chatWebhookJob(deps: {
  chat: ChatService;
  bots: BotsService;
  log: (record: RequestRecord) => Promise<void>;
  /** How the POST goes out (http/outbound.ts: refuses private addresses when configured to). */
  fetch: OutboundFetch;
  timeoutMs: number;
  maxAttempts: number;
  clock: () => Date;
}): KindDefinition<typeof CHAT_WEBHOOK_JOB> {
  return defineJob({
    kind: CHAT_WEBHOOK_JOB,
    payload: ChatWebhookPayload,
    timeoutMs: deps.timeoutMs + 5_000,
    maxAttempts: deps.maxAttempts,
    backoff: CHAT_JOB_BACKOFF,
    async run(job, { signal, jobId, log }) {
      const bot = await deps.bots.chatFacts(job.botId);
      if (bot?.replyMode !== 'webhook' || !bot.webhookUrl) return;
      const url = bot.webhookUrl;
      const body = JSON.stringify(job.event);
      const secret = await deps.chat.webhookSecret(bot.id);
      const t = Math.floor(deps.clock().getTime() / 1000);
      const started = Date.now();
      const record = (statusCode: number, errorMessage?: string) =>
        deps
          .log({
            botId: bot.id,
            requestId: jobId,
            operationId: 'chat.webhook',
            method: 'POST',
            path: url.slice(0, 2000),
            statusCode,
            durationMs: Date.now() - started,
            ...(errorMessage ? { errorMessage } : {}),
          })
          .catch((error: unknown) =>
            log.warn({ err: error }, 'could not write the webhook call to the bot log'),
          );
      let response: Awaited<ReturnType<OutboundFetch>>;
      try {
        response = await deps.fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Parley-Webhook/1',
            'x-parley-signature': webhookSignature(secret, body, t),
            'x-parley-event-id': job.event.id,
            'x-parley-event-type': job.event.type,
          },
          body,
          signal: AbortSignal.any([signal, AbortSignal.timeout(deps.timeoutMs)]),
          redirect: 'manual',
        });
        // The answer's body means nothing to Parley: it is never read, whatever its size.
        await discardBody(response);
      } catch (error) {
        const blocked = [error, (error as { cause?: unknown } | null)?.cause].find(
          (e): e is BlockedAddressError => e instanceof BlockedAddressError,
        );
        if (blocked) {
          await record(403, `webhook refused: ${blocked.message}`);
          throw new PermanentJobError(`webhook refused: ${blocked.message}`, 'blocked');
        }
        const timedOut =
          error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        const message = `webhook ${timedOut ? 'timed out' : `unreachable: ${error instanceof Error ? error.message : String(error)}`}`;
        await record(timedOut ? 504 : 502, message);
        throw new Error(message);
      }
      if (response.ok) {
        await record(response.status);
        return;
      }
      const message = `webhook answered ${response.status}`;
      await record(response.status, message);
      if (response.status >= 500 || response.status === 429) throw new Error(message);
      throw new PermanentJobError(message, 'rejected');
    },
  });
}
