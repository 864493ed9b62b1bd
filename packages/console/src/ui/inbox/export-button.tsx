import { useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { useAction } from '../../hooks.js';
import { t } from '../../i18n.js';
import { Field } from '../field.js';
import { Notice } from '../notice.js';
import { type Choice, SelectField } from '../select-field.js';

type Format = 'json' | 'csv';

/** The formats of an export, in the Console's language. */
const formats = (): readonly Choice<Format>[] => [
  { value: 'json', label: 'JSON' },
  { value: 'csv', label: t('export.csv') },
];

/** Saves `blob` as a file named `filename`, as a download link the browser follows. */
function save(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has the file once the click is handled; the URL is let go after.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The start of a day (`2026-03-01`) as the Admin API takes it, or undefined when none is chosen. */
const dayStart = (day: string) => (day ? new Date(`${day}T00:00:00`).toISOString() : undefined);

/**
 * "Export": one conversation (with `conversationId`), or the bot's conversations started in a period (from the
 * first day chosen to the end of the last, both optional), as JSON or CSV, downloaded through the Admin API's
 * export (every role that reads conversations).
 */
export function ExportButton({ botId, conversationId }: { botId: string; conversationId?: string }) {
  const { client } = useConsole();
  const { pending, error, run } = useAction();
  const [format, setFormat] = useState<Format>('json');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const idPrefix = conversationId ? 'export-one' : 'export-all';
  const exported = async (event: Event) => {
    event.preventDefault();
    await run(async () => {
      const end = to ? new Date(new Date(`${to}T00:00:00`).getTime() + 86_400_000).toISOString() : undefined;
      const { stream, filename, contentType } = conversationId
        ? await client.exportBotConversation({ id: botId, conversationId, format })
        : await client.exportBotConversations({ id: botId, format, from: dayStart(from), to: end });
      const blob = new Blob([await new Response(stream).arrayBuffer()], { type: contentType });
      save(blob, filename);
      return true;
    });
  };
  return (
    <details class="export">
      <summary class="export-summary">{t(conversationId ? 'export.one' : 'export.many')}</summary>
      <form class="stack" onSubmit={exported}>
        <SelectField<Format>
          id={`${idPrefix}-format`}
          label={t('export.format')}
          value={format}
          choices={formats()}
          onValue={setFormat}
        />
        {conversationId ? null : (
          <div class="export-period">
            <Field id="export-from" type="date" label={t('export.from')} value={from} onValue={setFrom} />
            <Field id="export-to" type="date" label={t('export.to')} value={to} onValue={setTo} />
          </div>
        )}
        <Notice error={error} />
        <div class="actions">
          <button type="submit" disabled={pending}>
            {t(pending ? 'export.pending' : 'export.submit')}
          </button>
        </div>
      </form>
    </details>
  );
}
