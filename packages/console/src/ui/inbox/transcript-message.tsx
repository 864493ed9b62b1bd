import type { BotConversationMessage } from '@parley/client';
import { formatDateTime } from '../../format.js';
import { type MessageKey, t, wordsOf } from '../../i18n.js';
import { Markdown } from '../markdown.js';
import { RetrievalDetails } from '../playground/retrieval.js';
import { SourceList } from '../playground/source-list.js';

/** What a reply's answer mode means, in words. */
const ANSWER_WORDS: Record<string, MessageKey> = {
  qa: 'answer.qa',
  passages: 'answer.passages',
  generated: 'answer.generated',
  not_found: 'answer.notFound',
  clarify: 'answer.clarify',
  small_talk: 'answer.smallTalk',
  unsupported: 'answer.unsupported',
  search_failed: 'answer.searchFailed',
  no_engine: 'answer.noEngine',
  failed: 'answer.failed',
};

/** The files a message carries (a `file` payload, or the `file` items of a bloc): their links and titles. */
function filesOf(payload: Record<string, unknown>): { url: string; title: string }[] {
  const items = payload.type === 'bloc' && Array.isArray(payload.items) ? payload.items : [payload];
  return items.flatMap((item: unknown) => {
    const f = item as { type?: unknown; fileUrl?: unknown; title?: unknown } | null;
    if (f?.type !== 'file' || typeof f.fileUrl !== 'string') return [];
    return [{ url: f.fileUrl, title: typeof f.title === 'string' && f.title ? f.title : f.fileUrl }];
  });
}

/** The text a message shows: a bloc's Markdown and text items (its files are listed apart). */
function textOf(m: BotConversationMessage): string {
  const { payload } = m;
  if (payload.type === 'file') return '';
  if (payload.type !== 'bloc' || !Array.isArray(payload.items)) return m.text;
  return payload.items
    .map((item: unknown) => {
      const i = item as { type?: unknown; text?: unknown; markdown?: unknown } | null;
      return i?.type === 'markdown' ? i.markdown : i?.type === 'text' ? i.text : undefined;
    })
    .filter((t): t is string => typeof t === 'string')
    .join('\n\n');
}

/** The feedback a visitor gave a reply: the thumb, in words too, and the comment as text. */
function Feedback({ feedback }: { feedback: NonNullable<BotConversationMessage['feedback']> }) {
  const negative = feedback.value === 'negative';
  return (
    <div class={`feedback ${negative ? 'feedback-negative' : 'feedback-positive'}`}>
      <span aria-hidden="true">{negative ? '👎' : '👍'}</span>{' '}
      <strong>{negative ? t('transcript.thumbsDown') : t('transcript.thumbsUp')}</strong>
      {feedback.comment ? <q class="feedback-comment">{feedback.comment}</q> : null}
    </div>
  );
}

/** One message of a transcript: who, when, its text; for a bot reply its sources, details and feedback. */
export function TranscriptMessage({ botId, message: m }: { botId: string; message: BotConversationMessage }) {
  const bot = m.author === 'bot';
  // A person of the workspace (human handoff) is named; their replies read like the bot's.
  const who =
    m.author === 'agent'
      ? t('transcript.person', { name: m.userName ?? t('transcript.aPerson') })
      : bot
        ? t('transcript.bot')
        : m.userName
          ? t('transcript.visitorNamed', { name: m.userName })
          : t('transcript.visitor');
  const files = filesOf(m.payload);
  return (
    <li class={`msg ${bot || m.author === 'agent' ? 'msg-bot' : 'msg-visitor'}`} data-author={m.author}>
      <p class="msg-head">
        <strong>{who}</strong>{' '}
        <time class="muted" dateTime={m.createdAt}>
          {formatDateTime(m.createdAt)}
        </time>
        {m.answer === 'not_found' ? (
          <span class="badge badge-unanswered">{t('answer.notAnswered')}</span>
        ) : null}
      </p>
      {/* Replies render as the visitor saw them (Markdown, sanitised); a visitor's words stay as typed. */}
      <Markdown
        text={textOf(m)}
        format={bot || m.author === 'agent' ? 'markdown' : 'text'}
        class="msg-text"
      />
      {files.length > 0 ? (
        <ul class="msg-files" aria-label={t('transcript.files')}>
          {files.map((f) => (
            <li key={f.url}>
              <a href={f.url} target="_blank" rel="noopener noreferrer">
                {f.title}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {m.sources ? <SourceList botId={botId} sources={m.sources} class="msg-sources" /> : null}
      {m.answer && m.answer !== 'not_found' ? <p class="muted">{wordsOf(ANSWER_WORDS, m.answer)}</p> : null}
      {m.details ? <RetrievalDetails botId={botId} debug={m.details} /> : null}
      {m.feedback ? <Feedback feedback={m.feedback} /> : null}
    </li>
  );
}
