import type { BotQaEntry } from '@parley/client';
import { useConsole } from '../../context.js';
import { useForm } from '../../form.js';
import { useAction } from '../../hooks.js';
import { t } from '../../i18n.js';
import { Field, Toggle } from '../field.js';
import { Markdown } from '../markdown.js';
import { Notice } from '../notice.js';
import { formatTags, parseTags, wordingsOf } from './fields.js';
import { PickSentence } from './pick-sentence.js';

/** The values of the entry form, as typed. */
interface EntryValues {
  questions: string;
  answer: string;
  tags: string;
  enabled: boolean;
}

/**
 * The form adding an entry (no `entry`) or changing one: its wordings (one per line), its answer in Markdown
 * with a preview as the chat shows it, its tags and whether the bot answers with it. `questions` fills a new
 * entry's wordings (what a visitor asked; "Answer this"), and then the sentences of the knowledge closest to the
 * first are offered to pick as the answer. `onSaved` gets the saved entry.
 */
export function QaEntryForm(props: {
  botId: string;
  entry?: BotQaEntry | undefined;
  questions?: string[] | undefined;
  onSaved(entry: BotQaEntry, created: boolean): void;
  onCancel(): void;
}) {
  const { botId, entry } = props;
  const { client } = useConsole();
  const { pending, error, run } = useAction();
  const id = entry ? `qa-${entry.id}` : 'qa-new';
  const form = useForm<EntryValues>(
    {
      questions: (entry?.questions ?? props.questions ?? []).join('\n'),
      answer: entry?.answer ?? '',
      tags: formatTags(entry?.tags ?? {}),
      enabled: entry?.enabled ?? true,
    },
    async (values) => {
      const parsed = parseTags(values.tags);
      const fields = {
        questions: wordingsOf(values.questions),
        answer: values.answer.trim(),
        tags: 'tags' in parsed ? parsed.tags : {},
        enabled: values.enabled,
      };
      const answer = await run(() =>
        entry
          ? client.updateQaEntry({ id: botId, entryId: entry.id, ...fields })
          : client.createQaEntry({ id: botId, ...fields }),
      );
      if (answer) props.onSaved(answer.entry, !entry);
    },
    (values) => {
      const problems: Partial<Record<keyof EntryValues, string>> = {};
      if (wordingsOf(values.questions).length === 0) problems.questions = t('qaForm.questionsMissing');
      if (values.answer.trim() === '') problems.answer = t('qaForm.answerMissing');
      const tags = parseTags(values.tags);
      if ('problem' in tags) problems.tags = tags.problem;
      return problems;
    },
  );
  const questions = form.field('questions');
  const answer = form.field('answer');
  const tags = form.field('tags');
  const enabled = form.field('enabled');
  return (
    <form
      class="card stack qa-form"
      onSubmit={form.submit}
      noValidate
      aria-label={t(entry ? 'qaForm.edit' : 'qaForm.new')}
    >
      <h3 class="qa-h">{t(entry ? 'qaForm.edit' : 'qaForm.new')}</h3>
      <Field
        type="textarea"
        id={`${id}-questions`}
        label={t('qaForm.questions')}
        rows={4}
        hint={t('qaForm.questionsHint')}
        {...questions}
      />
      <Field
        type="textarea"
        id={`${id}-answer`}
        label={t('qaForm.answer')}
        rows={5}
        hint={t('qaForm.answerHint')}
        {...answer}
      />
      {!entry && props.questions?.[0] ? (
        <PickSentence
          botId={botId}
          question={props.questions[0]}
          onPick={(sentence) =>
            answer.onValue(answer.value.trim() ? `${answer.value.trim()} ${sentence}` : sentence)
          }
        />
      ) : null}
      {answer.value.trim() ? (
        <div class="stack qa-preview">
          <span class="muted">{t('qaForm.preview')}</span>
          <div class="playground-reply">
            <Markdown text={answer.value} />
          </div>
        </div>
      ) : null}
      <Field
        id={`${id}-tags`}
        label={t('files.tags')}
        autocomplete="off"
        hint={t('qaForm.tagsHint')}
        {...tags}
      />
      <Toggle label={t('qaForm.enabled')} value={enabled.value} onValue={enabled.onValue} />
      <div class="actions">
        <button type="submit" class="primary" disabled={pending}>
          {t(entry ? 'qaForm.save' : 'qaForm.add')}
        </button>
        <button type="button" onClick={props.onCancel} disabled={pending}>
          {t('action.cancel')}
        </button>
      </div>
      <Notice error={error} />
    </form>
  );
}
