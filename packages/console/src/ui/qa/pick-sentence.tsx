import { useConsole } from '../../context.js';
import { useLoad } from '../../hooks.js';
import { t } from '../../i18n.js';
import { Notice } from '../notice.js';
import { sentencesOf } from './fields.js';

/** Passages searched for the question, and sentences shown of each at most. */
const PASSAGES = 3;
const SENTENCES = 6;

/**
 * The sentences of the bot's knowledge closest to a visitor's question (its best passages by the Files API's
 * search), each with a button adding it to the entry's answer (`onPick`): what the documents already say, to
 * answer with or start from. Nothing when the knowledge has no passage for it.
 */
export function PickSentence({
  botId,
  question,
  onPick,
}: {
  botId: string;
  question: string;
  onPick(sentence: string): void;
}) {
  const { client, workspace } = useConsole();
  const found = useLoad(['qa-pick', workspace?.id, botId, question], () =>
    client.searchFiles({ query: question, mode: 'hybrid', limit: PASSAGES }, { botId }),
  );
  const passages = (found.data?.passages ?? [])
    .map((p) => ({ key: p.file.key, sentences: sentencesOf(p.content).slice(0, SENTENCES) }))
    .filter((p) => p.sentences.length > 0);
  return (
    <section class="stack qa-pick" aria-labelledby="qa-pick-heading">
      <h4 id="qa-pick-heading" class="qa-h">
        {t('qaPick.title')}
      </h4>
      <Notice error={found.error} />
      {found.data === undefined ? (
        found.loading ? (
          <p role="status">{t('qaPick.searching')}</p>
        ) : null
      ) : passages.length === 0 ? (
        <p class="muted">{t('qaPick.nothing')}</p>
      ) : (
        passages.map((p, i) => (
          <div key={`${p.key}-${i}`} class="stack">
            <span class="muted">{t('qaPick.from', { key: p.key })}</span>
            <ul class="list" aria-label={t('qaPick.sentencesFrom', { key: p.key })}>
              {p.sentences.map((sentence) => (
                <li key={sentence} class="list-row qa-sentence">
                  <span>{sentence}</span>
                  <button type="button" onClick={() => onPick(sentence)}>
                    {t('qaPick.use')}
                    <span class="visually-hidden">{t('qaPick.useThis', { sentence })}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
    </section>
  );
}
