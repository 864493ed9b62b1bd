import type { Client, FileObject } from '@parley/client';
import { useConsole } from '../../context.js';
import { formatNumber } from '../../format.js';
import { useLoad } from '../../hooks.js';
import { t } from '../../i18n.js';
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
    <CardSection id="file-passages-title" title={t('file.passages')}>
      <ListState
        of={{ error: passages.error, loading: passages.loading, data: passages.data?.passages }}
        loadingWords={t('file.passagesLoading')}
        emptyClass="muted"
        empty={file.status === 'indexing_completed' ? t('file.noText') : t('file.noPassagesYet')}
      >
        {(list) => (
          <>
            {passages.data?.meta.nextToken ? (
              <p class="muted">{t('file.firstPassages', { n: formatNumber(SHOWN) })}</p>
            ) : null}
            <ol class="passages" aria-label={t('file.passages')}>
              {list.map((p, i) => (
                <li key={p.id} class="passage">
                  <span class="passage-page">
                    {t('file.passageN', { n: formatNumber(i + 1) })}
                    {p.meta.pageNumber !== undefined ? t('file.passagePage', { n: p.meta.pageNumber }) : ''}
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
