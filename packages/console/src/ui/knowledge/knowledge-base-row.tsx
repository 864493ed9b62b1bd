import type { KnowledgeBase } from '@parley/client';
import { useState } from 'preact/hooks';
import { useForm } from '../../form.js';
import { formatBytes } from '../../format.js';
import { useAction } from '../../hooks.js';
import { ConfirmDelete } from '../confirm-delete.js';
import { Field } from '../field.js';
import { Notice } from '../notice.js';
import { useBotClient } from './file-status.js';

/** How many of a knowledge base's files are indexed, waiting and failed, and their size, in words. */
export function describeCounts(kb: KnowledgeBase): string {
  const { total, indexed, pending, failed, size } = kb.files;
  if (total === 0) return 'No files yet';
  const parts = [`${total} ${total === 1 ? 'file' : 'files'}`, `${indexed} indexed`];
  if (pending > 0) parts.push(`${pending} in progress`);
  if (failed > 0) parts.push(`${failed} failed`);
  parts.push(formatBytes(size));
  return parts.join(' · ');
}

/** What a bot's knowledge bases hold together, in words: "3 knowledge bases · 58 files · 12 MB". */
export function describeKnowledge(kbs: KnowledgeBase[]): string {
  const files = kbs.reduce((n, kb) => n + kb.files.total, 0);
  const size = kbs.reduce((n, kb) => n + kb.files.size, 0);
  const bases = `${kbs.length} ${kbs.length === 1 ? 'knowledge base' : 'knowledge bases'}`;
  return `${bases} · ${files} ${files === 1 ? 'file' : 'files'} · ${formatBytes(size)}`;
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
            Rename <span class="visually-hidden">{kb.name}</span>
          </button>
          <button type="button" class="danger" onClick={() => setMode('delete')}>
            Delete <span class="visually-hidden">{kb.name}</span>
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
      <Field id={`rename-${kb.id}`} label="New name" required maxLength={200} {...name} />
      <div class="actions">
        <button type="submit" class="primary" disabled={pending || name.value.trim() === ''}>
          Save name
        </button>
        <button type="button" onClick={done} disabled={pending}>
          Cancel
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
      confirmLabel="Yes, delete this knowledge base"
      question={
        <>
          Delete the knowledge base <strong>{kb.name}</strong>? Its files stay in the Files table, but the bot
          no longer answers from this group.
        </>
      }
      remove={() => files.deleteKnowledgeBase({ id: kb.id })}
      onDeleted={onChanged}
      onCancel={done}
    />
  );
}
