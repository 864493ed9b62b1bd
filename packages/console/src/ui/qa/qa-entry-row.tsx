import type { BotQaEntry } from '@parley/client';
import { useEffect, useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { useAction } from '../../hooks.js';
import { t } from '../../i18n.js';
import { ConfirmDelete } from '../confirm-delete.js';
import { Toggle } from '../field.js';
import { Markdown } from '../markdown.js';
import { Notice } from '../notice.js';
import { QaEntryForm } from './qa-entry-form.js';

/**
 * One entry in the list: its wordings, its answer as the chat shows it (cut to a few lines), its tags and
 * whether it is enabled; for who may write, Edit (the form in place), an enable switch and Delete (confirmed).
 */
export function QaEntryRow(props: {
  botId: string;
  entry: BotQaEntry;
  mayWrite: boolean;
  onChanged(message: string): void;
}) {
  const { botId, entry, mayWrite, onChanged } = props;
  const { client } = useConsole();
  const [mode, setMode] = useState<'view' | 'edit' | 'delete'>('view');
  const toggle = useAction();
  // The switch shows the choice at once; it goes back if the save fails, and follows the entry reloaded.
  const [enabledShown, setEnabledShown] = useState(entry.enabled);
  useEffect(() => setEnabledShown(entry.enabled), [entry.enabled]);
  const [first, ...others] = entry.questions;
  const tags = Object.entries(entry.tags);

  async function setEnabled(enabled: boolean) {
    const { questions, answer } = entry;
    setEnabledShown(enabled);
    const saved = await toggle.run(() =>
      client.updateQaEntry({ id: botId, entryId: entry.id, questions, answer, enabled }),
    );
    if (saved)
      onChanged(t(enabled ? 'qaEntry.enabledWords' : 'qaEntry.disabledWords', { question: first ?? '' }));
    else setEnabledShown(entry.enabled);
  }

  if (mode === 'edit') {
    return (
      <li class="list-row qa-row">
        <QaEntryForm
          botId={botId}
          entry={entry}
          onSaved={() => {
            setMode('view');
            onChanged(t('qaEntry.saved', { question: first ?? '' }));
          }}
          onCancel={() => setMode('view')}
        />
      </li>
    );
  }
  return (
    <li class="list-row qa-row" aria-label={first}>
      <div class="qa-who">
        <span class="list-title">{first}</span>
        <span class={`badge ${entry.enabled ? 'badge-active' : 'badge-disabled'}`}>
          {t(entry.enabled ? 'qaEntry.enabled' : 'qaEntry.disabled')}
        </span>
        {others.length > 0 ? (
          <span class="muted qa-others">{t('unanswered.variants', { variants: others.join(' · ') })}</span>
        ) : null}
      </div>
      <div class="playground-reply qa-answer">
        <Markdown text={entry.answer} />
      </div>
      {tags.length > 0 ? (
        <ul class="tag-list" aria-label={t('files.tags')}>
          {tags.map(([key, value]) => (
            <li key={key} class="tag-chip">
              {key}={value}
            </li>
          ))}
        </ul>
      ) : null}
      {mayWrite && mode === 'view' ? (
        <div class="actions qa-actions">
          <Toggle
            label={t('qaEntry.enabled')}
            value={enabledShown}
            disabled={toggle.pending}
            onValue={setEnabled}
          >
            <span class="visually-hidden"> ({first})</span>
          </Toggle>
          <button type="button" onClick={() => setMode('edit')}>
            {t('action.edit')} <span class="visually-hidden">{first}</span>
          </button>
          <button type="button" class="danger" onClick={() => setMode('delete')}>
            {t('action.delete')} <span class="visually-hidden">{first}</span>
          </button>
        </div>
      ) : null}
      <Notice error={toggle.error} />
      {mode === 'delete' ? (
        <ConfirmDelete
          class="qa-delete"
          confirmLabel={t('qaEntry.confirmDelete')}
          question={
            <>
              {t('qaEntry.deleteAsk')} <strong>{first}</strong>
              {t('qaEntry.deleteWhy')}
            </>
          }
          remove={() => client.deleteQaEntry({ id: botId, entryId: entry.id })}
          onDeleted={() => {
            setMode('view');
            onChanged(t('qaEntry.deleted', { question: first ?? '' }));
          }}
          onCancel={() => setMode('view')}
        />
      ) : null}
    </li>
  );
}
