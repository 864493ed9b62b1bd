import type { Client, FileObject } from '@parley/client';
import { useConsole } from '../../context.js';
import { useLoad } from '../../hooks.js';
import { ListState } from '../list-state.js';
import { CardSection } from './card-section.js';

/** Passages shown at most. */
const SHOWN = 200;

/** A file's passages, in order, with the page each comes from (PDFs and other paged documents). */
export function FilePassages({ file, files }: { file: FileObject; files: Client }) {
  const { workspace } = useConsole();
  const passages = useLoad(
    ['file-passages', workspace?.id, file.botId, file.id, file.updatedAt, file.status],
    () => files.listFilePassages({ id: file.id, limit: SHOWN }),
  );
  return (
    <CardSection id="file-passages-title" title="Passages">
      <ListState
        of={{ error: passages.error, loading: passages.loading, data: passages.data?.passages }}
        loadingWords="Loading passages…"
        emptyClass="muted"
        empty={
          file.status === 'indexing_completed'
            ? 'This file gave no text to search.'
            : 'No passages yet: they appear once the file is indexed.'
        }
      >
        {(list) => (
          <>
            {passages.data?.meta.nextToken ? (
              <p class="muted">The first {SHOWN} passages are shown.</p>
            ) : null}
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
      </ListState>
    </CardSection>
  );
}
