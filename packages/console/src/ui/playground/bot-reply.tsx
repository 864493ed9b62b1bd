import type { BotAnswerPreview } from '@parley/client';
import { type MessageKey, t, wordsOf } from '../../i18n.js';
import { Markdown } from '../markdown.js';
import { RetrievalDetails } from './retrieval.js';
import { SourceList } from './source-list.js';

/** What the reply's mode means, in words. */
const MODE_WORDS: Record<string, MessageKey> = {
  qa: 'answer.qa',
  passages: 'answer.passagesBot',
  generated: 'answer.generatedBot',
  not_found: 'answer.nothingFound',
  clarify: 'answer.clarify',
  small_talk: 'answer.smallTalk',
  unsupported: 'answer.unsupported',
  search_failed: 'answer.searchFailed',
  no_engine: 'answer.noEngine',
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
          {preview.found ? t('answer.answered') : t('answer.notAnswered')}
        </span>{' '}
        <span class="muted">{wordsOf(MODE_WORDS, preview.mode)}</span>
      </p>
      {preview.replyMode === 'webhook' ? <p class="muted">{t('answer.webhook')}</p> : null}
      <div class="playground-reply">
        <Markdown text={preview.text} format={preview.format} />
      </div>
      {answerHref && preview.mode === 'not_found' ? (
        <a class="button answer-this" href={answerHref}>
          {t('answer.answerThis')}
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
