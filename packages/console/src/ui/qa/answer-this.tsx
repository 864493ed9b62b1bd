import type { BotConversation } from '@parley/client';
import { useConsole } from '../../context.js';
import { formatDateTime } from '../../format.js';
import { useLoad, useOwnMember } from '../../hooks.js';
import { t } from '../../i18n.js';
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
    <a class="button answer-this" href={answerThisHref(botId, wordings)}>
      {t('unanswered.answerThis')}
      <span class="visually-hidden">{t('teach.answerThisOf', { question: first })}</span>
    </a>
  );
}

/**
 * The inbox's mark of a corrected conversation: a question of it that went unanswered (or got a thumbs down) is
 * answered now by a Q&A entry saved since (the Admin API's `answeredByEntry`); nothing otherwise.
 */
export function CorrectionMark({ conversation }: { conversation: Pick<BotConversation, 'answeredByEntry'> }) {
  const answered = conversation.answeredByEntry;
  if (!answered) return null;
  return (
    <span class="badge badge-corrected" title={`"${answered.question}"`}>
      {t('teach.answeredSince')}
      <time dateTime={answered.since}>{formatDateTime(answered.since)}</time>
    </span>
  );
}

/**
 * "Teach the bot" under a transcript (the inbox): whether a Q&A entry saved since answers a question of the
 * conversation, and, for who may write entries, each question a bot reply found nothing for or got a thumbs
 * down on with "Answer this" (the Q&A form filled with the visitor's words).
 */
export function AnswerTheseQuestions({
  botId,
  conversationId,
  messages,
}: {
  botId: string;
  conversationId: string;
  messages: readonly TranscriptTurn[];
}) {
  const { client, workspace } = useConsole();
  const me = useOwnMember();
  const questions = questionsToAnswer(messages);
  // Asked again when a question is added (a new reply may leave one more to correct).
  const conversation = useLoad(
    ['qa-correction', workspace?.id, botId, conversationId, questions.length],
    () => client.getBotConversation({ id: botId, conversationId }).then((r) => r.conversation),
  );
  const answered = conversation.data?.answeredByEntry;
  const mayWrite = mayWriteQa(me.data?.role);
  if (questions.length === 0 || (!mayWrite && !answered)) return null;
  return (
    <section class="card stack answer-these" aria-labelledby="answer-these-heading">
      <h3 id="answer-these-heading">{t('teach.title')}</h3>
      {answered ? (
        <p class="qa-corrected" role="status">
          <CorrectionMark conversation={{ answeredByEntry: answered }} />{' '}
          <span>
            {t('teach.getsAsk', { question: answered.question })}
            <a href={`/console/bots/${encodeURIComponent(botId)}/qa`}>{t('teach.qa')}</a>
            {t('teach.getsWhy')}
          </span>
        </p>
      ) : null}
      {mayWrite ? (
        <>
          <p class="hint">{t('teach.hint')}</p>
          <ul class="list" aria-label={t('teach.list')}>
            {questions.map((question) => (
              <li key={question} class="list-row">
                <span class="list-title">{question}</span>
                <AnswerThisLink botId={botId} wordings={[question]} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
