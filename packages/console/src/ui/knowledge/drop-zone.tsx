import { useState } from 'preact/hooks';
import { formatSize } from './file-status.js';
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
        Drop PDFs, Word or Markdown files here
      </h3>
      <p class="muted">
        HTML, text, CSV, JSON, Excel and PowerPoint files work too, up to 1 GB each. A file named like one
        already stored replaces it.
      </p>
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
        Choose files
      </label>
    </section>
  );
}

/** What an upload's state says in words. */
function uploadWords(u: Upload): string {
  if (u.state === 'waiting') return 'Waiting to upload';
  if (u.state === 'failed') return `Upload failed: ${u.error ?? 'unknown reason'}`;
  if (u.state === 'uploaded') return 'Uploaded: its indexing shows below';
  const percent = u.size === 0 ? 100 : Math.floor((u.loaded / u.size) * 100);
  return `Uploading: ${percent}% (${formatSize(u.loaded)} of ${formatSize(u.size)})`;
}

/** The files sent from this page, each with its upload progress. */
export function UploadList({ uploads, onClear }: { uploads: Upload[]; onClear(): void }) {
  if (uploads.length === 0) return null;
  const finished = uploads.some((u) => u.state === 'uploaded' || u.state === 'failed');
  return (
    <section class="card stack" aria-labelledby="uploads-title">
      <div class="page-head">
        <h3 id="uploads-title" class="kn-h">
          Uploads
        </h3>
        {finished ? (
          <button type="button" class="quiet" onClick={onClear}>
            Clear finished uploads
          </button>
        ) : null}
      </div>
      <ul class="kn-rows" aria-label="Uploads">
        {uploads.map((u) => (
          <li key={u.id} class="kn-file">
            <span class="kn-key">{u.name}</span>
            {u.state === 'failed' ? (
              <p class="notice notice-error">{uploadWords(u)}</p>
            ) : (
              <ProgressBar
                label={`Upload of ${u.name}`}
                value={u.state === 'waiting' ? 0 : u.size === 0 ? 100 : (u.loaded / u.size) * 100}
                words={uploadWords(u)}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
