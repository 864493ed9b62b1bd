import type { BotQaEntry } from '@parley/client';
import { useConsole } from '../../context.js';
import { useForm } from '../../form.js';
import { useAction } from '../../hooks.js';
import { Field } from '../field.js';
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
      if (wordingsOf(values.questions).length === 0)
        problems.questions = 'Write at least one way a visitor asks it.';
      if (values.answer.trim() === '') problems.answer = 'Write the answer the bot gives.';
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
      aria-label={entry ? 'Edit entry' : 'New entry'}
    >
      <h3 class="qa-h">{entry ? 'Edit entry' : 'New entry'}</h3>
      <Field
        type="textarea"
        id={`${id}-questions`}
        label="Questions"
        rows={4}
        hint="The ways visitors ask it, one per line. A visitor's question close to any of them gets the answer below."
        {...questions}
      />
      <Field
        type="textarea"
        id={`${id}-answer`}
        label="Answer"
        rows={5}
        hint="Markdown: **bold**, [links](https://example.com), lists with - and quotes with >. Links may lead only to http(s), mailto: and tel: addresses."
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
          <span class="muted">Preview, as the chat shows it</span>
          <div class="playground-reply">
            <Markdown text={answer.value} />
          </div>
        </div>
      ) : null}
      <Field
        id={`${id}-tags`}
        label="Tags"
        autocomplete="off"
        hint="Optional, as key=value; key=value (for example topic=billing)."
        {...tags}
      />
      <label class="toggle">
        <input
          type="checkbox"
          checked={enabled.value}
          onChange={(event) => enabled.onValue(event.currentTarget.checked)}
        />
        Enabled: the bot answers with this entry
      </label>
      <div class="actions">
        <button type="submit" class="primary" disabled={pending}>
          {entry ? 'Save entry' : 'Add entry'}
        </button>
        <button type="button" onClick={props.onCancel} disabled={pending}>
          Cancel
        </button>
      </div>
      <Notice error={error} />
    </form>
  );
}
