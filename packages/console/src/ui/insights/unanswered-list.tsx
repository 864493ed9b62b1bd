import type { UnansweredQuestion } from '@parley/client';
import { formatDateTime, formatNumber } from '../../format.js';
import { t } from '../../i18n.js';

/**
 * The questions the bot could not answer, most asked first, each with how often and when it was last asked
 * and its other wordings; all rendered as text. The operator works from it to add documents, or (given
 * `answerHref`, for who may write Q&A entries) to answer a question with an entry: "Answer this".
 */
export function UnansweredList({
  questions,
  knowledgeHref,
  answerHref,
}: {
  questions: UnansweredQuestion[];
  knowledgeHref: string;
  /** The address of the Q&A form filled with a question's wordings; no "Answer this" without it. */
  answerHref?: ((question: UnansweredQuestion) => string) | undefined;
}) {
  return (
    <section class="card stack" aria-labelledby="unanswered-heading">
      <h2 id="unanswered-heading">{t('unanswered.title')}</h2>
      {questions.length === 0 ? (
        <p class="empty">{t('unanswered.empty')}</p>
      ) : (
        <>
          <p class="hint">
            {t('unanswered.lead')} {t('unanswered.addDocuments')}{' '}
            <a href={knowledgeHref}>{t('section.knowledge')}</a>
            {answerHref ? t('unanswered.orAnswer') : ''}.
          </p>
          <ol class="list unanswered" aria-label={t('unanswered.list')}>
            {questions.map((q) => (
              <li key={q.question} class="list-row">
                <span class="list-title">{q.question}</span>
                <span class="muted">
                  {t(q.count === 1 ? 'unanswered.askedOnce' : 'unanswered.asked', {
                    count: formatNumber(q.count),
                    last: formatDateTime(q.lastAskedAt),
                  })}
                </span>
                {q.variants.length > 0 ? (
                  <span class="muted variants">
                    {t('unanswered.variants', { variants: q.variants.join(' · ') })}
                  </span>
                ) : null}
                {answerHref ? (
                  <a class="button answer-this" href={answerHref(q)}>
                    {t('unanswered.answerThis')}
                    <span class="visually-hidden">: {q.question}</span>
                  </a>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
