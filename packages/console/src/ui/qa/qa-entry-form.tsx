import type { BotQaEntry } from '@parley/client';
import { useConsole } from '../../context.js';
import { useForm } from '../../form.js';
import { useAction } from '../../hooks.js';
import { Hint } from '../field.js';
import { Markdown } from '../markdown.js';
import { Notice } from '../notice.js';
import { formatTags, parseTags, wordingsOf } from './fields.js';

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
 * entry's wordings (what a visitor asked). `onSaved` gets the saved entry.
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
      <TextArea
        id={`${id}-questions`}
        label="Questions"
        rows={4}
        hint="The ways visitors ask it, one per line. A visitor's question close to any of them gets the answer below."
        value={questions.value}
        onValue={questions.onValue}
        error={questions.error}
      />
      <TextArea
        id={`${id}-answer`}
        label="Answer"
        rows={5}
        hint="Markdown: **bold**, [links](https://example.com), lists with - and quotes with >. Links may lead only to http(s), mailto: and tel: addresses."
        value={answer.value}
        onValue={answer.onValue}
        error={answer.error}
      />
      {answer.value.trim() ? (
        <div class="stack qa-preview">
          <span class="muted">Preview, as the chat shows it</span>
          <div class="playground-reply">
            <Markdown text={answer.value} />
          </div>
        </div>
      ) : null}
      <div class="field">
        <label for={`${id}-tags`}>Tags</label>
        <input
          id={`${id}-tags`}
          type="text"
          value={tags.value}
          autocomplete="off"
          aria-invalid={tags.error ? 'true' : undefined}
          aria-describedby={[tags.error ? `${id}-tags-error` : '', `${id}-tags-hint`].join(' ').trim()}
          onInput={(event) => tags.onValue(event.currentTarget.value)}
        />
        {tags.error ? (
          <p class="field-error" id={`${id}-tags-error`}>
            {tags.error}
          </p>
        ) : null}
        <Hint id={`${id}-tags-hint`}>Optional, as key=value; key=value (for example topic=billing).</Hint>
      </div>
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

/** A labelled text area with a hint and the message of its last refusal. */
function TextArea(props: {
  id: string;
  label: string;
  rows: number;
  hint: string;
  value: string;
  onValue(value: string): void;
  error: string | undefined;
}) {
  const { id } = props;
  const errorId = props.error ? `${id}-error` : '';
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        rows={props.rows}
        value={props.value}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={`${errorId} ${id}-hint`.trim()}
        onInput={(event) => props.onValue(event.currentTarget.value)}
      />
      {props.error ? (
        <p class="field-error" id={errorId}>
          {props.error}
        </p>
      ) : null}
      <Hint id={`${id}-hint`}>{props.hint}</Hint>
    </div>
  );
}
