import type { ChatMessage, ChatSignal } from '@parley/protocol';
import { BlockedAddressError, type OutboundFetch } from '../../http/outbound.js';
import { newSecretId } from '../../ids.js';
import { defineJob, type KindDefinition, PermanentJobError } from '../../jobs/registry.js';
import { discardBody } from '../../outbound-body.js';
import { ENGLISH_WORDS, wordsFor } from '../bots/index.js';
import type { BotsService } from '../bots/service.js';
import type { RequestRecord } from '../logs/service.js';
import {
  botUserId,
  type ChatBot,
  type ChatReplyJob,
  type ChatService,
  type PendingSignal,
  type ReplyContext,
} from './contract.js';
import { handoffWebhookUrl, offerPerson } from './handoff-wait.js';
import {
  CHAT_JOB_BACKOFF,
  CHAT_REPLY_JOB,
  CHAT_REPLY_MAX_ATTEMPTS,
  CHAT_WEBHOOK_JOB,
  ChatReplyPayload,
  ChatWebhookPayload,
} from './job-kinds.js';
import { webhookSignature } from './keys.js';
import { type KnowledgeResponder, NO_ANSWER_ENGINE_TEXT, type Reply } from './reply-port.js';
import { FAILED_ANSWER, replyRecord } from './reply-record.js';
import { NOT_FOUND_ANSWER } from './repo-inbox.js';
import { conversationLanguage, messageLanguageOf } from './words.js';

/** Why a reply the bot was making ended unposted: a person took the conversation over meanwhile. */
const HANDED_OFF = new Error('handoff');

/** What the bot says when every attempt to answer failed (English; in the question's language: words/). */
export const REPLY_FAILED_TEXT = ENGLISH_WORDS.replyFailed;

/** One attempt at answering a message: the bot, the job, the id chosen for the first reply, and whether it streamed. */
interface ReplyAttempt {
  bot: ChatBot;
  job: ChatReplyJob;
  /** The first reply's id, chosen before asking: its stream deltas carry it and its source links name it. */
  replyId: string;
  /** Whether a delta of the reply went out (the stream then ends with complete or abort). */
  streamed: boolean;
  /**
   * The conversation's language (the webchat's locale, the bot's default): the responder's tie-breaker for the
   * bot's words when it cannot tell the question's.
   */
  language: string;
}

/** The visitor's earlier messages of a reply's context (their language tells a short question's). */
function visitorHistory(context: ReplyContext): ChatMessage[] {
  return context.history.filter((m) => !m.isBot && m.id !== context.message.id);
}

/** The bot's typing indicator in the attempt's conversation. */
function typing(a: ReplyAttempt, type: 'typing_started' | 'typing_stopped'): ChatSignal {
  return { type, data: { conversationId: a.job.conversationId, userId: botUserId(a.bot.id), isBot: true } };
}

/** Asks the responder (or says there is none), storing each stream delta as it comes, in order. */
async function askResponder(
  chat: ChatService,
  responder: KnowledgeResponder | undefined,
  a: ReplyAttempt,
  context: ReplyContext,
  signal: AbortSignal,
): Promise<Reply> {
  if (!responder) return { messages: [{ payload: { type: 'text', text: NO_ANSWER_ENGINE_TEXT } }] };
  const { bot, job, replyId } = a;
  // Deltas are stored in order; each waits for the one before, so the stream never reorders.
  let chain: Promise<void> = Promise.resolve();
  const reply = await responder.answer(
    {
      workspaceId: bot.workspaceId,
      botId: bot.id,
      conversationId: job.conversationId,
      message: context.message,
      history: context.history,
      signal,
      messageId: replyId,
      sourceLinks: bot.sourceLinks,
      // The bot's words in every language: the responder picks them in the one it answers in (issue #38).
      replies: bot.replies,
      language: a.language,
    },
    {
      delta(text: string) {
        a.streamed = true;
        const data = { id: replyId, conversationId: job.conversationId, delta: text };
        chain = chain.then(() =>
          chat.emit(bot.id, job.conversationId, [{ signal: { type: 'message_stream_delta', data } }]),
        );
      },
    },
  );
  await chain;
  return reply;
}

/** The signals stored with the reply: the stream's end, the responder's debug details (adminKey only), typing off. */
function replySignals(a: ReplyAttempt, reply: Reply): PendingSignal[] {
  const { conversationId, messageId } = a.job;
  const extra: PendingSignal[] = [];
  if (a.streamed)
    extra.push({
      conversationId,
      signal: { type: 'message_stream_complete', data: { id: a.replyId, conversationId } },
      adminOnly: false,
    });
  if (reply.debug)
    extra.push({
      conversationId,
      signal: { type: 'debug', data: { ...reply.debug, conversationId, messageId, replyId: a.replyId } },
      adminOnly: true,
    });
  extra.push({ conversationId, signal: typing(a, 'typing_stopped'), adminOnly: false });
  return extra;
}

/** The signals of a failed attempt: the stream's abort (when it streamed) and typing off. */
function failedSignals(a: ReplyAttempt, error: unknown): Array<{ signal: ChatSignal }> {
  const signals: Array<{ signal: ChatSignal }> = [];
  if (a.streamed) {
    const reason = error instanceof Error ? error.message : 'error';
    const data = { id: a.replyId, conversationId: a.job.conversationId, reason };
    signals.push({ signal: { type: 'message_stream_abort', data } });
  }
  signals.push({ signal: typing(a, 'typing_stopped') });
  return signals;
}

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
      if (!context || context.answered || !context.botAnswers) return;
      const language = conversationLanguage(bot, context.message);
      const attempt: ReplyAttempt = { bot, job, replyId: newSecretId('msg'), streamed: false, language };
      await chat.emit(bot.id, job.conversationId, [{ signal: typing(attempt, 'typing_started') }]);
      try {
        const reply = await askResponder(chat, deps.responder, attempt, context, signal);
        const record = replyRecord(reply, deps.responder !== undefined);
        // The bot's own "not found" offers a person after the bot's number of misses (handoff settings).
        const misses =
          record.answer === NOT_FOUND_ANSWER && bot.handoff?.offerAfterMisses
            ? (await chat.missesIn(bot.id, job.conversationId)) + 1
            : 0;
        // The words the bot adds (its offer of a person) are in the language of the reply's own (issue #38).
        const { words } = wordsFor(bot.replies, reply.language ?? language);
        const posted = await chat.postAsBot(
          bot,
          job.conversationId,
          // The first reply takes the id its stream deltas carried (clients swap the draft for it) and its
          // source links name.
          reply.messages.map((m, i) =>
            i === 0
              ? { ...m, payload: offerPerson(bot, m.payload, misses, words), id: attempt.replyId, ...record }
              : m,
          ),
          { replyTo: job.messageId, extra: replySignals(attempt, reply), botTurn: true },
        );
        // A person took the conversation over while the bot was thinking: its reply was not stored.
        if (posted.length === 0)
          await chat.emit(bot.id, job.conversationId, failedSignals(attempt, HANDED_OFF));
      } catch (error) {
        // The attempt's own failure is what counts (and is rethrown); this one is only logged.
        await chat
          .emit(bot.id, job.conversationId, failedSignals(attempt, error))
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
      if (!context || context.answered || !context.botAnswers) return;
      const language = messageLanguageOf(bot, context.message, visitorHistory(context));
      await chat.postAsBot(
        bot,
        job.conversationId,
        [
          {
            payload: { type: 'text', text: wordsFor(bot.replies, language).words.replyFailed },
            answer: FAILED_ANSWER,
          },
        ],
        { replyTo: job.messageId, botTurn: true },
      );
    },
  });
}

/** The webhook POST of an event: JSON, signed with the bot's webhook secret at unix time `t`, never redirected. */
function webhookRequest(
  event: { id: string; type: string },
  body: string,
  signing: { secret: string; t: number },
  signal: AbortSignal,
): Parameters<OutboundFetch>[1] {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Parley-Webhook/1',
      'x-parley-signature': webhookSignature(signing.secret, body, signing.t),
      'x-parley-event-id': event.id,
      'x-parley-event-type': event.type,
    },
    body,
    signal,
    redirect: 'manual',
  };
}

/** How a webhook POST that threw is logged and ends: refused (a blocked address, permanent), timed out, or unreachable. */
function webhookFailure(error: unknown): { statusCode: number; message: string; blocked: boolean } {
  const blocked = [error, (error as { cause?: unknown } | null)?.cause].find(
    (e): e is BlockedAddressError => e instanceof BlockedAddressError,
  );
  if (blocked) return { statusCode: 403, message: `webhook refused: ${blocked.message}`, blocked: true };
  const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
  const message = `webhook ${timedOut ? 'timed out' : `unreachable: ${error instanceof Error ? error.message : String(error)}`}`;
  return { statusCode: timedOut ? 504 : 502, message, blocked: false };
}

/**
 * The `chat_webhook` job: POSTs a {@link ChatWebhookJob}'s event as JSON to the bot's webhook URL (its handoff
 * webhook URL for `conversation.handoff_requested`), signed
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
      const url =
        bot &&
        (job.to === 'handoff' ? handoffWebhookUrl(bot) : bot.replyMode === 'webhook' && bot.webhookUrl);
      if (!bot || !url) return;
      // A visitor's message while a person answers (human handoff) is not the bot's to answer.
      const { conversationId, message: posted } = job.event;
      if (
        posted &&
        !posted.isBot &&
        conversationId &&
        !(await deps.chat.botMayAnswer(bot.id, conversationId))
      )
        return;
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
        response = await deps.fetch(
          url,
          webhookRequest(
            job.event,
            body,
            { secret, t },
            AbortSignal.any([signal, AbortSignal.timeout(deps.timeoutMs)]),
          ),
        );
        // The answer's body means nothing to Parley: it is never read, whatever its size.
        await discardBody(response);
      } catch (error) {
        const failure = webhookFailure(error);
        await record(failure.statusCode, failure.message);
        throw failure.blocked
          ? new PermanentJobError(failure.message, 'blocked')
          : new Error(failure.message);
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
