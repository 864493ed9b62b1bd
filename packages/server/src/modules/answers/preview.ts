import type { AnswerPreviewResponse, Bot, ChatMessage } from '@parley/protocol';
import type { Actor } from '../../access/principal.js';
import { errors } from '../../errors/errors.js';
import type { BotManagement } from '../bots/contract.js';
import type { KnowledgeResponder, Reply, ReplyRequest } from '../chat/contract.js';
import { NO_ANSWER_ENGINE_TEXT } from '../chat/contract.js';
import type { AnswerMode } from './responder.js';

/** Previews the bot's reply to a question without a conversation (the Console's search playground). */
export interface AnswerPreviewService {
  /**
   * The reply the bot would give to `question` in a conversation: its knowledge answers' own text, sources
   * and debug details. Reading the bot (`bot.read`) is enough; 404 for a bot of another workspace, 400 for a
   * blank question. Nothing is stored: no conversation, no message.
   */
  preview(actor: Actor, botId: string, question: string): Promise<AnswerPreviewResponse>;
}

/** What a preview is made with: the bots (read, with its permission check) and the chat's knowledge responder. */
export interface AnswerPreviewDeps {
  bots: Pick<BotManagement, 'get'>;
  /** The responder the Chat API's reply job uses (undefined: none, the bot says so). */
  responder: KnowledgeResponder | undefined;
  clock?: () => Date;
}

/**
 * The bot's texts in every language, as the chat reply job hands them to the responder (which picks them in the
 * language it answers in), with the bot's default language as the tie-breaker (a preview has no webchat locale).
 */
function replyWordsFor(bot: Pick<Bot, 'replies'>): Pick<ReplyRequest, 'replies' | 'language'> {
  return { replies: bot.replies, language: bot.replies.language ?? 'en' };
}

/** Modes whose reply answers from the knowledge: its passages, or a Q&A entry. */
const FOUND_MODES: ReadonlySet<string> = new Set<AnswerMode>(['qa', 'passages', 'generated']);

/** The preview message: a user's text message of a conversation that does not exist. */
function previewMessage(text: string, at: Date): ChatMessage {
  return {
    id: 'preview',
    createdAt: at.toISOString(),
    conversationId: 'preview',
    userId: 'preview',
    isBot: false,
    payload: { type: 'text', text },
  };
}

/** A reply as the preview answers it: its messages' text and the sources of their metadata. */
function previewOf(reply: Reply): Omit<AnswerPreviewResponse, 'replyMode'> {
  let format: 'text' | 'markdown' = 'text';
  const texts: string[] = [];
  const sources: AnswerPreviewResponse['sources'] = [];
  for (const message of reply.messages) {
    const { payload } = message;
    if (payload.type === 'markdown') {
      format = 'markdown';
      texts.push(payload.markdown);
    } else if (payload.type === 'text') texts.push(payload.text);
    const listed = (message.metadata as { sources?: AnswerPreviewResponse['sources'] } | undefined)?.sources;
    for (const s of listed ?? []) {
      sources.push({
        fileId: s.fileId,
        key: s.key,
        score: s.score,
        ...(s.pageNumber ? { pageNumber: s.pageNumber } : {}),
      });
    }
  }
  const mode = typeof reply.debug?.mode === 'string' ? reply.debug.mode : 'unknown';
  return {
    text: texts.join('\n\n'),
    format,
    found: FOUND_MODES.has(mode),
    mode,
    sources,
    ...(reply.debug ? { debug: reply.debug } : {}),
  };
}

/**
 * The answer preview service, asking the same knowledge responder the chat reply job asks (so the preview is
 * exactly what the bot would say), as the bot itself, with the question as the whole conversation.
 * @example const previews = answerPreviewService({ bots, responder }); await previews.preview(actor, botId, 'Refunds?')
 */
export function answerPreviewService(deps: AnswerPreviewDeps): AnswerPreviewService {
  const clock = deps.clock ?? (() => new Date());
  return {
    async preview(actor, botId, question) {
      const bot = await deps.bots.get(actor, botId);
      if (question.trim() === '') {
        throw errors.invalidPayload('question must not be blank', [
          { field: 'question', message: 'must not be blank' },
        ]);
      }
      if (!deps.responder) {
        return {
          text: NO_ANSWER_ENGINE_TEXT,
          format: 'text',
          found: false,
          mode: 'no_engine',
          sources: [],
          replyMode: bot.replyMode,
        };
      }
      const message = previewMessage(question, clock());
      const reply = await deps.responder.answer({
        workspaceId: bot.workspaceId,
        botId: bot.id,
        conversationId: message.conversationId,
        message,
        history: [message],
        sourceLinks: bot.sourceLinks,
        ...replyWordsFor(bot),
      });
      return { ...previewOf(reply), replyMode: bot.replyMode };
    },
  };
}
