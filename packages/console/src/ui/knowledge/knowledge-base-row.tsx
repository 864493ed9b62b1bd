import type { KnowledgeBase } from '@parley/client';
import { useState } from 'preact/hooks';
import { useForm } from '../../form.js';
import { formatBytes, formatCount } from '../../format.js';
import { useAction } from '../../hooks.js';
import { t } from '../../i18n.js';
import { ConfirmDelete } from '../confirm-delete.js';
import { Field } from '../field.js';
import { Notice } from '../notice.js';
import { useBotClient } from './file-status.js';

/** How many of a knowledge base's files are indexed, waiting and failed, and their size, in words. */
export function describeCounts(kb: KnowledgeBase): string {
  const { total, indexed, pending, failed, size } = kb.files;
  if (total === 0) return t('kb.noFiles');
  const parts = [
    formatCount('count.file', 'count.files', total),
    formatCount('count.indexedOne', 'count.indexed', indexed),
  ];
  if (pending > 0) parts.push(formatCount('count.inProgressOne', 'count.inProgress', pending));
  if (failed > 0) parts.push(formatCount('count.failedOne', 'count.failed', failed));
  parts.push(formatBytes(size));
  return parts.join(' · ');
}

/** What a bot's knowledge bases hold together, in words: "3 knowledge bases · 58 files · 12 MB". */
export function describeKnowledge(kbs: KnowledgeBase[]): string {
  const files = kbs.reduce((n, kb) => n + kb.files.total, 0);
  const size = kbs.reduce((n, kb) => n + kb.files.size, 0);
  const bases = formatCount('count.kb', 'count.kbs', kbs.length);
  return `${bases} · ${formatCount('count.file', 'count.files', files)} · ${formatBytes(size)}`;
}

/** One knowledge base in the list: its link and counts; rename and delete (confirmed) for who may. */
export function KnowledgeBaseRow(props: {
  botId: string;
  kb: KnowledgeBase;
  mayChange: boolean;
  onChanged(): void;
}) {
  const { botId, kb, mayChange } = props;
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const href = `/console/bots/${encodeURIComponent(botId)}/knowledge/${encodeURIComponent(kb.id)}`;
  return (
    <li class="list-row kb-row">
      <div class="kb-who">
        <a href={href} class="list-title">
          {kb.name}
        </a>
        <span class="muted">{describeCounts(kb)}</span>
      </div>
      {mayChange && mode === 'view' ? (
        <div class="actions">
          <button type="button" onClick={() => setMode('rename')}>
            {t('action.rename')} <span class="visually-hidden">{kb.name}</span>
          </button>
          <button type="button" class="danger" onClick={() => setMode('delete')}>
            {t('action.delete')} <span class="visually-hidden">{kb.name}</span>
          </button>
        </div>
      ) : null}
      {mode === 'rename' ? <RenameKnowledgeBase {...props} done={() => setMode('view')} /> : null}
      {mode === 'delete' ? <DeleteKnowledgeBase {...props} done={() => setMode('view')} /> : null}
    </li>
  );
}

type ChangeProps = { botId: string; kb: KnowledgeBase; onChanged(): void; done(): void };

function RenameKnowledgeBase({ botId, kb, onChanged, done }: ChangeProps) {
  const files = useBotClient(botId);
  const { pending, error, run } = useAction();
  const form = useForm({ name: kb.name }, async ({ name }) => {
    const answer = await run(() => files.updateKnowledgeBase({ id: kb.id, name: name.trim() }));
    if (!answer) return;
    onChanged();
    done();
  });
  const name = form.field('name');
  return (
    <form class="inline-form kb-change" onSubmit={form.submit}>
      <Field id={`rename-${kb.id}`} label={t('kb.newName')} required maxLength={200} {...name} />
      <div class="actions">
        <button type="submit" class="primary" disabled={pending || name.value.trim() === ''}>
          {t('kb.saveName')}
        </button>
        <button type="button" onClick={done} disabled={pending}>
          {t('action.cancel')}
        </button>
      </div>
      <Notice error={error} />
    </form>
  );
}

function DeleteKnowledgeBase({ botId, kb, onChanged, done }: ChangeProps) {
  const files = useBotClient(botId);
  return (
    <ConfirmDelete
      class="kb-change"
      confirmLabel={t('kb.confirmDelete')}
      question={
        <>
          {t('kb.deleteAsk')} <strong>{kb.name}</strong>
          {t('kb.deleteWhy')}
        </>
      }
      remove={() => files.deleteKnowledgeBase({ id: kb.id })}
      onDeleted={onChanged}
      onCancel={done}
    />
  );
}
