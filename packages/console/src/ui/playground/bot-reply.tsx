import type { BotAnswerPreview } from '@parley/client';
import { Markdown } from '../markdown.js';
import { RetrievalDetails } from './retrieval.js';
import { SourceList } from './source-list.js';

/** What the reply's mode means, in words. */
const MODE_WORDS: Record<string, string> = {
  qa: 'Answered by a Q&A entry',
  passages: "Quoted word for word from the bot's documents",
  generated: "Written by the chat model from the bot's documents",
  not_found: 'Nothing relevant found',
  clarify: 'Asked back: unsure which topic was meant, offered choices',
  small_talk: 'Small talk: no search',
  unsupported: 'Not a question the bot searches for',
  search_failed: 'The search failed',
  no_engine: 'No answer engine',
};

/**
 * The reply the bot would give to the question: its text as the chat would show it, and its sources. Given
 * `answerHref` (who may write Q&A entries), a reply that found nothing offers "Answer this".
 */
export function BotReply({
  botId,
  preview,
  answerHref,
}: {
  botId: string;
  preview: BotAnswerPreview;
  answerHref?: string | undefined;
}) {
  return (
    <div class="stack playground-reply-body">
      <p>
        <span class={`badge ${preview.found ? 'badge-active' : 'badge-disabled'}`}>
          {preview.found ? 'Answered' : 'Not answered'}
        </span>{' '}
        <span class="muted">{MODE_WORDS[preview.mode] ?? preview.mode}</span>
      </p>
      {preview.replyMode === 'webhook' ? (
        <p class="muted">
          This bot replies through its webhook: visitors get your webhook's answer, not this one.
        </p>
      ) : null}
      <div class="playground-reply">
        <Markdown text={preview.text} format={preview.format} />
      </div>
      {answerHref && preview.mode === 'not_found' ? (
        <a class="answer-this" href={answerHref}>
          Answer this with a Q&amp;A entry
        </a>
      ) : null}
      <SourceList
        botId={botId}
        sources={preview.sources}
        class="stack"
        titleId="playground-sources-title"
        listClass="playground-sources"
      />
      <RetrievalDetails botId={botId} debug={preview.debug} />
    </div>
  );
}
