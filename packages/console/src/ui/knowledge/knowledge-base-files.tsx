import { useState } from 'preact/hooks';
import { useAction } from '../../hooks.js';
import { ListState } from '../list-state.js';
import { Notice } from '../notice.js';
import { describeFailure } from './failure-words.js';
import {
  FILE_STATUS_WORDS,
  filePath,
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
      return { value: percent, words: `Uploading: ${percent}%` };
    }
    return { words: 'Waiting for the upload' };
  }
  if (file.status === 'upload_completed') return { words: 'Uploaded, waiting to be indexed' };
  const progress = file.detail?.indexingProgress;
  if (progress && progress.total > 0) {
    const percent = Math.floor((progress.done / progress.total) * 100);
    return { value: percent, words: `Indexing: ${progress.done} of ${progress.total} passages` };
  }
  return { words: 'Indexing: reading the document' };
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
        Files in this knowledge base
      </h3>
      <ListState
        of={{ error: props.error, loading: props.loading, data: files }}
        loadingWords="Loading the files…"
        empty={
          props.mayChange
            ? 'No files yet. Drop documents above or press "Choose files": they are indexed as soon as they arrive.'
            : 'No files yet. Someone with the developer role or above can add documents.'
        }
      >
        {() => (
          <ul class="list" aria-label="Files in this knowledge base">
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
            The {SHOWN} files added last are shown, of {latest.length}. The Files tab searches them all.
          </span>
          <button type="button" onClick={() => setAll(true)}>
            Show all {latest.length} files
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
            Remove<span class="visually-hidden"> {file.key}</span> from this knowledge base
          </button>
        ) : null}
      </div>
      {failure ? (
        <div class="kn-failure">
          <p class="notice notice-error">
            {FILE_STATUS_WORDS[file.status]}: {failure.words}
          </p>
          {props.mayChange && file.status === 'indexing_failed' && failure.retry ? (
            <button type="button" onClick={reindex} disabled={pending}>
              Re-index <span class="visually-hidden">{file.key}</span>
            </button>
          ) : null}
        </div>
      ) : done ? null : (
        <ProgressBar label={`Progress of ${file.key}`} value={progress.value} words={progress.words} />
      )}
      <Notice error={error} />
    </li>
  );
}
