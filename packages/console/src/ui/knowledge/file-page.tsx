import type { Bot, Client, FileObject } from '@parley/client';
import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { useConsole } from '../../context.js';
import { formatBytes, formatDateTime } from '../../format.js';
import { useAction, useLoad, useOwnMember } from '../../hooks.js';
import { mayChangeFiles } from '../../roles.js';
import { BotFrame } from '../bot-frame.js';
import { ConfirmDelete } from '../confirm-delete.js';
import { Notice } from '../notice.js';
import { CardSection } from './card-section.js';
import { describeFailure } from './failure-words.js';
import { FileAccess } from './file-access.js';
import { FilePassages } from './file-passages.js';
import { fileStatusWords, isFailed, isIndexing, LIVE_EVERY, useBotClient } from './file-status.js';
import { FileTags } from './file-tags.js';

/** One file: what it is, its tags, who may read it, its passages; download, re-index and delete. */
export function FilePage() {
  return <BotFrame>{(bot) => <FilePanel bot={bot} />}</BotFrame>;
}

/** The names of the knowledge bases a file is linked to. */
async function knowledgeBasesOf(files: Client, fileId: string): Promise<string[]> {
  const kbs = await files.list.knowledgeBases({ pageSize: 100 }).collect();
  const linked = await Promise.all(
    kbs.map(async (kb) =>
      (await files.listKnowledgeBaseFiles({ id: kb.id })).files.some((f) => f.fileId === fileId)
        ? kb.name
        : undefined,
    ),
  );
  return linked.filter((name): name is string => name !== undefined);
}

function FilePanel({ bot }: { bot: Bot }) {
  const { workspace } = useConsole();
  const { params } = useRoute();
  const fileId = params.fileId ?? '';
  const files = useBotClient(bot.id);
  const me = useOwnMember();
  const mayChange = mayChangeFiles(me.data?.role);
  const [live, setLive] = useState(false);
  const file = useLoad(
    ['file', workspace?.id, bot.id, fileId],
    () => files.getFile({ id: fileId }).then((r) => r.file),
    { every: live ? LIVE_EVERY : 0 },
  );
  const moving = file.data ? isIndexing(file.data.status, file.data.index) : false;
  useEffect(() => setLive(moving), [moving]);
  const kbs = useLoad(['file-knowledge-bases', workspace?.id, bot.id, fileId], () =>
    knowledgeBasesOf(files, fileId),
  );
  const back = `/console/bots/${encodeURIComponent(bot.id)}/files`;

  if (!file.data) {
    return (
      <div class="stack">
        <p>
          <a href={back}>← Files</a>
        </p>
        {file.loading ? <p role="status">Loading the file…</p> : <Notice error={file.error} />}
      </div>
    );
  }
  const f = file.data;
  return (
    <div class="stack">
      <p>
        <a href={back}>← Files</a>
      </p>
      <h2 class="kn-key">{f.key}</h2>
      <FileFacts file={f} knowledgeBases={kbs.data} />
      <FileActions file={f} files={files} mayChange={mayChange} onChanged={file.reload} />
      <FileTags file={f} files={files} mayChange={mayChange} onChanged={file.reload} />
      <FileAccess file={f} files={files} mayChange={mayChange} onChanged={file.reload} />
      <FilePassages file={f} files={files} />
      {mayChange ? <DeleteFile file={f} files={files} back={back} /> : null}
    </div>
  );
}

function FileFacts({ file, knowledgeBases }: { file: FileObject; knowledgeBases: string[] | undefined }) {
  return (
    <CardSection id="file-facts-title" title="Details">
      <dl class="facts">
        <dt>Key</dt>
        <dd class="kn-key">{file.key}</dd>
        <dt>Size</dt>
        <dd>{formatBytes(file.size)}</dd>
        <dt>Content type</dt>
        <dd class="kn-key">{file.contentType}</dd>
        <dt>Status</dt>
        <dd>
          {fileStatusWords(file.status)}
          {isFailed(file.status) ? `: ${describeFailure(file.status, file.failedStatusReason).words}` : ''}
          {file.status === 'indexing_pending' && file.indexingProgress
            ? ` (${file.indexingProgress.done} of ${file.indexingProgress.total} passages)`
            : ''}
        </dd>
        <dt>Created</dt>
        <dd>{formatDateTime(file.createdAt)}</dd>
        <dt>Updated</dt>
        <dd>{formatDateTime(file.updatedAt)}</dd>
        <dt>Knowledge bases</dt>
        <dd>
          {knowledgeBases === undefined ? '…' : knowledgeBases.length ? knowledgeBases.join(', ') : 'None'}
        </dd>
      </dl>
    </CardSection>
  );
}

type PanelProps = { file: FileObject; files: Client; mayChange: boolean; onChanged(): void };

/** Download (everyone who sees the file), Re-index (who may change it). */
function FileActions({ file, files, mayChange, onChanged }: PanelProps) {
  const { pending, error, run } = useAction();
  const name = file.key.split('/').pop() || 'file';
  const uploaded = file.size !== null && file.status !== 'upload_pending' && file.status !== 'upload_failed';
  async function reindex() {
    if (await run(() => files.reindexFile({ id: file.id }))) onChanged();
  }
  return (
    <div class="actions">
      {uploaded ? (
        <a class="button-like" href={file.url} download={name}>
          Download
        </a>
      ) : null}
      {mayChange &&
      uploaded &&
      (file.status === 'indexing_completed' ||
        (file.status === 'indexing_failed' &&
          describeFailure(file.status, file.failedStatusReason).retry)) ? (
        <button type="button" onClick={reindex} disabled={pending}>
          Re-index
        </button>
      ) : null}
      <Notice error={error} />
    </div>
  );
}

function DeleteFile({ file, files, back }: { file: FileObject; files: Client; back: string }) {
  const { route } = useLocation();
  return (
    <CardSection id="delete-file-title" title="Delete" class="danger-zone">
      <ConfirmDelete
        askLabel="Delete file"
        confirmLabel="Yes, delete this file"
        question={
          <>
            Delete <strong class="kn-key">{file.key}</strong> with its passages? The bot stops answering from
            it. This cannot be undone.
          </>
        }
        remove={() => files.deleteFile({ id: file.id })}
        onDeleted={() => route(back)}
      />
    </CardSection>
  );
}
