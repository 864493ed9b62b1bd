import type { Bot, Client, FileObject } from '@parley/client';
import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { useConsole } from '../../context.js';
import { formatBytes, formatDateTime, formatNumber } from '../../format.js';
import { useAction, useLoad, useOwnMember } from '../../hooks.js';
import { t } from '../../i18n.js';
import { mayChangeFiles } from '../../roles.js';
import { BotFrame } from '../bot-frame.js';
import { ConfirmDelete } from '../confirm-delete.js';
import { Notice } from '../notice.js';
import { PageLoading } from '../page-loading.js';
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
    return <PageLoading of={file} back={back} backWords={t('file.back')} loadingWords={t('file.loading')} />;
  }
  const f = file.data;
  return (
    <div class="stack">
      <p>
        <a href={back}>{t('file.back')}</a>
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
    <CardSection id="file-facts-title" title={t('file.details')}>
      <dl class="facts">
        <dt>{t('files.key')}</dt>
        <dd class="kn-key">{file.key}</dd>
        <dt>{t('files.size')}</dt>
        <dd>{formatBytes(file.size)}</dd>
        <dt>{t('file.contentType')}</dt>
        <dd class="kn-key">{file.contentType}</dd>
        <dt>{t('files.status')}</dt>
        <dd>
          {fileStatusWords(file.status)}
          {isFailed(file.status)
            ? t('file.because', { reason: describeFailure(file.status, file.failedStatusReason).words })
            : ''}
          {file.status === 'indexing_pending' && file.indexingProgress
            ? t('file.passagesDone', {
                done: formatNumber(file.indexingProgress.done),
                total: formatNumber(file.indexingProgress.total),
              })
            : ''}
        </dd>
        <dt>{t('file.created')}</dt>
        <dd>{formatDateTime(file.createdAt)}</dd>
        <dt>{t('files.updated')}</dt>
        <dd>{formatDateTime(file.updatedAt)}</dd>
        <dt>{t('kb.title')}</dt>
        <dd>
          {knowledgeBases === undefined
            ? '…'
            : knowledgeBases.length
              ? knowledgeBases.join(', ')
              : t('file.none')}
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
          {t('file.download')}
        </a>
      ) : null}
      {mayChange &&
      uploaded &&
      (file.status === 'indexing_completed' ||
        (file.status === 'indexing_failed' &&
          describeFailure(file.status, file.failedStatusReason).retry)) ? (
        <button type="button" onClick={reindex} disabled={pending}>
          {t('file.reindex')}
        </button>
      ) : null}
      <Notice error={error} />
    </div>
  );
}

function DeleteFile({ file, files, back }: { file: FileObject; files: Client; back: string }) {
  const { route } = useLocation();
  return (
    <CardSection id="delete-file-title" title={t('action.delete')} class="danger-zone">
      <ConfirmDelete
        askLabel={t('file.delete')}
        confirmLabel={t('file.confirmDelete')}
        question={
          <>
            {t('action.delete')} <strong class="kn-key">{file.key}</strong>
            {t('file.deleteWhy')}
          </>
        }
        remove={() => files.deleteFile({ id: file.id })}
        onDeleted={() => route(back)}
      />
    </CardSection>
  );
}
