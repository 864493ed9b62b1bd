import { defineJob, type KindDefinition } from '../../jobs/registry.js';
import type { BotWords } from '../bots/index.js';
import type { BotsService } from '../bots/service.js';
import type { ChatContext } from './context.js';
import type { ChatService } from './contract.js';
import { applyTransition } from './handoff.js';
import { closedAt, EMAIL_FORM } from './handoff-wait.js';
import { CHAT_HANDOFF_WAIT_JOB, CHAT_JOB_BACKOFF, ChatHandoffWaitPayload } from './job-kinds.js';
import { chatRepo } from './repo.js';
import { NOT_FOUND_ANSWER } from './repo-inbox.js';

/**
 * The end of a visitor's wait for a person: while the conversation still waits since the very time the job
 * was queued for, it goes back to the bot (guarded as every change of owner, audited as the system's), the bot
 * saying nobody came (or that nobody answers at this hour) with the e-mail form.
 */
export function chatHandoffTimeout(
  ctx: Pick<ChatContext, 'db' | 'bots' | 'now' | 'clock' | 'withSignals' | 'audit' | 'jobs'>,
): Pick<ChatService, 'endHandoffWait' | 'missesIn'> {
  return {
    async endHandoffWait(job) {
      const bot = await ctx.bots.chatFacts(job.botId);
      if (!bot) return false;
      return ctx.withSignals(bot.id, async (tx, emit) => {
        const row = await chatRepo(tx).conversation(bot.id, job.conversationId);
        if (row?.handoff_state !== 'pending' || row.waiting_since !== job.waitingSince) return false;
        const closed = closedAt(bot, ctx.clock());
        const text = (words: BotWords) => (closed ? words.handoffClosed : words.handoffTimeout);
        const next = { state: 'bot' as const, agent: null, say: { text, metadata: { ...EMAIL_FORM } } };
        await applyTransition(tx, ctx, bot, row, next, { accountId: null }, emit);
        return true;
      });
    },

    async missesIn(botId, conversationId) {
      const row = await ctx.db
        .selectFrom('chat_messages')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('bot_id', '=', botId)
        .where('conversation_id', '=', conversationId)
        .where('is_bot', '=', 1)
        .where('answer', '=', NOT_FOUND_ANSWER)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}

/** The `chat_handoff_wait` job: run when a visitor's wait is over, by whichever process claims it. */
export function chatHandoffWaitJob(deps: {
  chat: Pick<ChatService, 'endHandoffWait'>;
  bots: Pick<BotsService, 'chatFacts'>;
}): KindDefinition<typeof CHAT_HANDOFF_WAIT_JOB> {
  return defineJob({
    kind: CHAT_HANDOFF_WAIT_JOB,
    payload: ChatHandoffWaitPayload,
    timeoutMs: 30_000,
    maxAttempts: 5,
    backoff: CHAT_JOB_BACKOFF,
    async run(job) {
      await deps.chat.endHandoffWait(job);
    },
  });
}
