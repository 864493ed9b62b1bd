import { useState } from 'preact/hooks';
import { formatBytes, formatCount } from '../../format.js';
import { t } from '../../i18n.js';
import { describeFailure } from './failure-words.js';
import { fileStatusWords, isFailed, type LinkedFile } from './file-status.js';
import { ProgressBar } from './progress-bar.js';
import type { Upload } from './uploads.js';

/**
 * Where files are dropped (many at once), with a labelled file picker for the keyboard and for people who
 * do not drag: both hand the chosen files to `onFiles`.
 */
export function DropZone({ onFiles }: { onFiles(files: File[]): void }) {
  const [over, setOver] = useState(false);
  const hasFiles = (event: DragEvent) => Boolean(event.dataTransfer?.types.includes('Files'));
  return (
    <section
      aria-labelledby="drop-zone-title"
      class={over ? 'drop-zone drop-zone-over' : 'drop-zone'}
      onDragEnter={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setOver(true);
      }}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        onFiles([...(event.dataTransfer?.files ?? [])]);
      }}
    >
      <h3 id="drop-zone-title" class="kn-h drop-zone-title">
        {t('drop.title')}
      </h3>
      <p class="muted">{t('drop.lead')}</p>
      <input
        id="kb-file-picker"
        class="visually-hidden"
        type="file"
        multiple
        onChange={(event) => {
          const input = event.currentTarget;
          onFiles([...(input.files ?? [])]);
          input.value = '';
        }}
      />
      <label for="kb-file-picker" class="button-like">
        {t('drop.choose')}
      </label>
    </section>
  );
}

/** How far an upload's bytes went, in words. */
function uploadingWords(u: Upload): string {
  if (u.state === 'waiting') return t('upload.waiting');
  const percent = u.size === 0 ? 100 : Math.floor((u.loaded / u.size) * 100);
  return t('upload.progress', { percent, loaded: formatBytes(u.loaded), size: formatBytes(u.size) });
}

/** A failed upload or indexing, with its reason in words. */
interface Failure {
  id: string;
  name: string;
  words: string;
}

/**
 * What the uploads from this page came to, counted: the summary line ("55 uploaded · 55 indexed · 0 failed",
 * with those still uploading or waiting before it), the uploads under way, and every failure with its reason.
 * An upload is indexed or failed as its file in the knowledge base says.
 */
export function summarizeUploads(uploads: Upload[], files: LinkedFile[] | undefined) {
  const byId = new Map((files ?? []).map((f) => [f.fileId, f]));
  const sending = uploads.filter((u) => u.state === 'uploading');
  const waiting = uploads.filter((u) => u.state === 'waiting').length;
  const uploaded = uploads.filter((u) => u.state === 'uploaded');
  const failures: Failure[] = uploads
    .filter((u) => u.state === 'failed')
    .map((u) => ({
      id: `u${u.id}`,
      name: u.name,
      words: t('file.failure', {
        status: t('fileStatus.uploadFailed'),
        reason: u.error ?? t('upload.noReason'),
      }),
    }));
  let indexed = 0;
  for (const u of uploaded) {
    const file = u.fileId ? byId.get(u.fileId) : undefined;
    if (file?.status === 'indexing_completed') indexed += 1;
    else if (file && isFailed(file.status)) {
      const failure = describeFailure(file.status, file.failedStatusReason);
      failures.push({
        id: `f${u.id}`,
        name: u.name,
        words: t('file.failure', { status: fileStatusWords(file.status), reason: failure.words }),
      });
    }
  }
  const parts = [
    ...(sending.length > 0 ? [formatCount('count.uploadingOne', 'count.uploading', sending.length)] : []),
    ...(waiting > 0 ? [formatCount('count.waitingOne', 'count.waiting', waiting)] : []),
    formatCount('count.uploadedOne', 'count.uploaded', uploaded.length),
    formatCount('count.indexedOne', 'count.indexed', indexed),
    formatCount('count.failedOne', 'count.failed', failures.length),
  ];
  return { line: parts.join(' · '), sending, failures, finished: uploaded.length + failures.length > 0 };
}

/**
 * The files sent from this page, in one summary line however many they are; the ones uploading now with
 * their progress, and the failures with their reason in words, listed under it.
 */
export function UploadList(props: { uploads: Upload[]; files: LinkedFile[] | undefined; onClear(): void }) {
  if (props.uploads.length === 0) return null;
  const { line, sending, failures, finished } = summarizeUploads(props.uploads, props.files);
  return (
    <section class="card stack" aria-labelledby="uploads-title">
      <div class="page-head">
        <h3 id="uploads-title" class="kn-h">
          {t('upload.title')}
        </h3>
        {finished ? (
          <button type="button" class="quiet" onClick={props.onClear}>
            {t('upload.clear')}
          </button>
        ) : null}
      </div>
      <p class="upload-summary" role="status">
        {line}
      </p>
      {sending.length > 0 ? (
        <ul class="kn-rows" aria-label={t('upload.now')}>
          {sending.map((u) => (
            <li key={u.id} class="kn-file">
              <span class="kn-key">{u.name}</span>
              <ProgressBar
                label={t('upload.of', { name: u.name })}
                value={u.size === 0 ? 100 : (u.loaded / u.size) * 100}
                words={uploadingWords(u)}
              />
            </li>
          ))}
        </ul>
      ) : null}
      {failures.length > 0 ? (
        <ul class="kn-rows" aria-label={t('upload.failed')}>
          {failures.map((f) => (
            <li key={f.id} class="kn-file">
              <span class="kn-key">{f.name}</span>
              <p class="notice notice-error">{f.words}</p>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
