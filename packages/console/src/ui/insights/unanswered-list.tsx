import type { UnansweredQuestion } from '@parley/client';
import { formatDateTime } from '../../format.js';

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
      <h2 id="unanswered-heading">Top unanswered questions</h2>
      {questions.length === 0 ? (
        <p class="empty">
          No unanswered questions in this period. When visitors ask something the knowledge base does not
          cover, it shows up here.
        </p>
      ) : (
        <>
          <p class="hint">
            Questions that got "I couldn't find anything…", grouped by similar wording or meaning. Add
            documents that answer them on the <a href={knowledgeHref}>Knowledge</a> page
            {answerHref ? ', or answer one with a Q&A entry: "Answer this"' : ''}.
          </p>
          <ol class="list unanswered" aria-label="Unanswered questions">
            {questions.map((q) => (
              <li key={q.question} class="list-row">
                <span class="list-title">{q.question}</span>
                <span class="muted">
                  Asked {q.count === 1 ? 'once' : `${q.count} times`}, last {formatDateTime(q.lastAskedAt)}
                </span>
                {q.variants.length > 0 ? (
                  <span class="muted variants">Also asked as: {q.variants.join(' · ')}</span>
                ) : null}
                {answerHref ? (
                  <a class="answer-this" href={answerHref(q)}>
                    Answer this<span class="visually-hidden">: {q.question}</span>
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
