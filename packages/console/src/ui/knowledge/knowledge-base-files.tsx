import { useState } from 'preact/hooks';
import { formatNumber } from '../../format.js';
import { useAction } from '../../hooks.js';
import { t } from '../../i18n.js';
import { ListState } from '../list-state.js';
import { Notice } from '../notice.js';
import { describeFailure } from './failure-words.js';
import {
  filePath,
  fileStatusWords,
  isFailed,
  type LinkedFile,
  StatusBadge,
  useBotClient,
} from './file-status.js';
import { ProgressBar } from './progress-bar.js';
import type { Upload } from './uploads.js';

/** Where a file stands, in words, with its progress when it moves (percent, or undefined when unknown). */
function progressOf(file: LinkedFile, upload: Upload | undefined): { value?: number; words: string } {
  if (file.status === 'upload_pending') {
    if (upload && upload.state === 'uploading' && upload.size > 0) {
      const percent = Math.floor((upload.loaded / upload.size) * 100);
      return { value: percent, words: t('upload.percent', { percent }) };
    }
    return { words: t('upload.waitingFor') };
  }
  if (file.status === 'upload_completed') return { words: t('upload.waitingIndex') };
  const progress = file.detail?.indexingProgress;
  if (progress && progress.total > 0) {
    const percent = Math.floor((progress.done / progress.total) * 100);
    return {
      value: percent,
      words: t('indexing.passages', {
        done: formatNumber(progress.done),
        total: formatNumber(progress.total),
      }),
    };
  }
  return { words: t('indexing.reading') };
}

/** Files listed before "Show all". */
const SHOWN = 100;

/** The files of a knowledge base, live: each one's state, progress, failure in words and Re-index. */
export function KnowledgeBaseFiles(props: {
  botId: string;
  knowledgeBaseId: string;
  files: LinkedFile[] | undefined;
  loading: boolean;
  error: string | undefined;
  mayChange: boolean;
  uploads: Upload[];
  onChanged(): void;
}) {
  const { files, uploads } = props;
  const [all, setAll] = useState(false);
  // Most recently added first; a knowledge base of thousands shows its latest SHOWN until asked for all.
  const latest = files ? [...files].reverse() : [];
  const shown = all ? latest : latest.slice(0, SHOWN);
  return (
    <section class="stack" aria-labelledby="kb-files-title">
      <h3 id="kb-files-title" class="kn-h">
        {t('kb.files')}
      </h3>
      <ListState
        of={{ error: props.error, loading: props.loading, data: files }}
        loadingWords={t('kb.filesLoading')}
        empty={props.mayChange ? t('kb.filesEmptyMayAdd') : t('kb.filesEmpty')}
      >
        {() => (
          <ul class="list" aria-label={t('kb.files')}>
            {shown.map((file) => (
              <LinkedFileRow
                key={file.fileId}
                botId={props.botId}
                knowledgeBaseId={props.knowledgeBaseId}
                file={file}
                upload={uploads.find((u) => u.fileId === file.fileId && u.state !== 'failed')}
                mayChange={props.mayChange}
                onChanged={props.onChanged}
              />
            ))}
          </ul>
        )}
      </ListState>
      {shown.length < latest.length ? (
        <p class="actions">
          <span class="muted">
            {t('kb.filesShown', { shown: formatNumber(SHOWN), total: formatNumber(latest.length) })}
          </span>
          <button type="button" onClick={() => setAll(true)}>
            {t('kb.showAll', { n: formatNumber(latest.length) })}
          </button>
        </p>
      ) : null}
    </section>
  );
}

function LinkedFileRow(props: {
  botId: string;
  knowledgeBaseId: string;
  file: LinkedFile;
  upload: Upload | undefined;
  mayChange: boolean;
  onChanged(): void;
}) {
  const { botId, file, upload } = props;
  const files = useBotClient(botId);
  const { pending, error, run } = useAction();
  const failure = isFailed(file.status) ? describeFailure(file.status, file.failedStatusReason) : undefined;
  const done = file.status === 'indexing_completed';
  async function reindex() {
    if (await run(() => files.reindexFile({ id: file.fileId }))) props.onChanged();
  }
  async function unlink() {
    const answer = await run(() =>
      files.unlinkKnowledgeBaseFile({ id: props.knowledgeBaseId, fileId: file.fileId }),
    );
    if (answer) props.onChanged();
  }
  const progress = progressOf(file, upload);
  return (
    <li class="list-row kn-file">
      <div class="kb-who">
        <a href={filePath(botId, file.fileId)} class="list-title kn-key">
          {file.key}
        </a>
        <StatusBadge file={file} />
        {props.mayChange ? (
          <button type="button" class="quiet kn-unlink" onClick={unlink} disabled={pending}>
            {t('kb.unlink')}
            <span class="visually-hidden"> {file.key}</span> {t('kb.unlinkFrom')}
          </button>
        ) : null}
      </div>
      {failure ? (
        <div class="kn-failure">
          <p class="notice notice-error">
            {t('file.failure', { status: fileStatusWords(file.status), reason: failure.words })}
          </p>
          {props.mayChange && file.status === 'indexing_failed' && failure.retry ? (
            <button type="button" onClick={reindex} disabled={pending}>
              {t('file.reindex')} <span class="visually-hidden">{file.key}</span>
            </button>
          ) : null}
        </div>
      ) : done ? null : (
        <ProgressBar
          label={t('kb.progressOf', { name: file.key })}
          value={progress.value}
          words={progress.words}
        />
      )}
      <Notice error={error} />
    </li>
  );
}
