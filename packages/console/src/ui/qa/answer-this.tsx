import { useOwnMember } from '../../hooks.js';
import { mayWriteQa } from '../../roles.js';
import { answerThisHref, questionsToAnswer, type TranscriptTurn } from './fields.js';

/**
 * "Answer this": a link to the bot's Q&A page with the new-entry form filled with `wordings` (what the visitor
 * asked), for who may write entries (developers and above); nothing for others or without a wording.
 */
export function AnswerThisLink({ botId, wordings }: { botId: string; wordings: string[] }) {
  const me = useOwnMember();
  const first = wordings[0];
  if (!mayWriteQa(me.data?.role) || first === undefined) return null;
  return (
    <a class="answer-this" href={answerThisHref(botId, wordings)}>
      Answer this<span class="visually-hidden">: {first}</span>
    </a>
  );
}

/**
 * "Answer this" under a transcript (the inbox): for each question of the conversation a bot reply found nothing
 * for or got a thumbs down on, a link opening the Q&A form filled with the visitor's words.
 */
export function AnswerTheseQuestions({
  botId,
  messages,
}: {
  botId: string;
  messages: readonly TranscriptTurn[];
}) {
  const me = useOwnMember();
  const questions = questionsToAnswer(messages);
  if (!mayWriteQa(me.data?.role) || questions.length === 0) return null;
  return (
    <section class="card stack answer-these" aria-labelledby="answer-these-heading">
      <h3 id="answer-these-heading">Teach the bot</h3>
      <p class="hint">
        Questions of this conversation the bot did not answer well. Write the answer once as a Q&amp;A entry:
        the next visitor asking it, in these words or others, gets it.
      </p>
      <ul class="list" aria-label="Questions to answer">
        {questions.map((question) => (
          <li key={question} class="list-row">
            <span class="list-title">{question}</span>
            <AnswerThisLink botId={botId} wordings={[question]} />
          </li>
        ))}
      </ul>
    </section>
  );
}
