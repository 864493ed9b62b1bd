import { useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { formatDateTime } from '../../format.js';
import { useAction, useLoad } from '../../hooks.js';
import { t } from '../../i18n.js';
import { Field } from '../field.js';
import { ListState } from '../list-state.js';
import { Notice } from '../notice.js';
import { deskKeys } from './desk-live.js';

/**
 * The conversation's internal notes, for the workspace's people only (the visitor never sees them): each
 * with its author and time, and for those who answer conversations a box to add one.
 */
export function Notes({
  botId,
  conversationId,
  mayWrite,
}: {
  botId: string;
  conversationId: string;
  mayWrite: boolean;
}) {
  const { client, workspace } = useConsole();
  const notes = useLoad(deskKeys.notes(workspace?.id, botId, conversationId), () =>
    client.listConversationNotes({ id: botId, conversationId }).then((r) => r.notes),
  );
  const { pending, error, run } = useAction();
  const [text, setText] = useState('');
  const add = async (event: Event) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    if (await run(() => client.createConversationNote({ id: botId, conversationId, text: value }))) {
      setText('');
      notes.reload();
    }
  };
  return (
    <section class="card stack desk-notes" aria-labelledby="notes-heading">
      <h3 id="notes-heading">{t('notes.title')}</h3>
      <p class="hint">{t('notes.hint')}</p>
      <ListState of={notes} loadingWords={t('notes.loading')} empty={t('notes.empty')}>
        {(items) => (
          <ol class="notes-list" aria-label={t('notes.list')}>
            {items.map((n) => (
              <li key={n.id}>
                <p class="msg-head">
                  <strong>{n.author.name}</strong>{' '}
                  <time class="muted" dateTime={n.createdAt}>
                    {formatDateTime(n.createdAt)}
                  </time>
                </p>
                <p class="note-text">{n.text}</p>
              </li>
            ))}
          </ol>
        )}
      </ListState>
      {mayWrite ? (
        <form class="stack" onSubmit={add}>
          <Field
            id="note-text"
            label={t('notes.new')}
            type="textarea"
            rows={2}
            value={text}
            onValue={setText}
            maxLength={4000}
          />
          <Notice error={error} />
          <div class="actions">
            <button type="submit" disabled={pending || text.trim() === ''}>
              {t('notes.add')}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
