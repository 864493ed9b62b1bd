import type { Client, FileObject } from '@parley/client';
import { useConsole } from '../../context.js';
import { useLoad } from '../../hooks.js';
import { Notice } from '../notice.js';

/** Passages shown at most. */
const SHOWN = 200;

/** A file's passages, in order, with the page each comes from (PDFs and other paged documents). */
export function FilePassages({ file, files }: { file: FileObject; files: Client }) {
  const { workspace } = useConsole();
  const passages = useLoad(
    ['file-passages', workspace?.id, file.botId, file.id, file.updatedAt, file.status],
    () => files.listFilePassages({ id: file.id, limit: SHOWN }),
  );
  const list = passages.data?.passages ?? [];
  return (
    <section class="card stack" aria-labelledby="file-passages-title">
      <h3 id="file-passages-title" class="kn-h">
        Passages
      </h3>
      <Notice error={passages.error} />
      {passages.data === undefined ? (
        passages.loading ? (
          <p role="status">Loading passages…</p>
        ) : null
      ) : list.length === 0 ? (
        <p class="muted">
          {file.status === 'indexing_completed'
            ? 'This file gave no text to search.'
            : 'No passages yet: they appear once the file is indexed.'}
        </p>
      ) : (
        <>
          {passages.data.meta.nextToken ? <p class="muted">The first {SHOWN} passages are shown.</p> : null}
          <ol class="passages" aria-label="Passages">
            {list.map((p, i) => (
              <li key={p.id} class="passage">
                <span class="passage-page">
                  Passage {i + 1}
                  {p.meta.pageNumber !== undefined ? ` · Page ${p.meta.pageNumber}` : ''}
                </span>
                {p.content}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
