import type { FileObject, ListFilesInput } from '@parley/client';
import { formatBytes, formatDateTime } from '../../format.js';
import { type MessageKey, t } from '../../i18n.js';
import { filePath, StatusBadge } from './file-status.js';

/** The sort of the Files table: a column the API sorts by, and a direction. */
export interface Sort {
  field: NonNullable<ListFilesInput['sortField']>;
  direction: 'asc' | 'desc';
}

const COLUMNS: { field: Sort['field']; label: MessageKey }[] = [
  { field: 'key', label: 'files.key' },
  { field: 'status', label: 'files.status' },
  { field: 'size', label: 'files.size' },
];

/** A column heading that sorts by its column: again flips the direction. */
function SortHeading(props: { field: Sort['field']; label: string; sort: Sort; onSort(sort: Sort): void }) {
  const { field, label, sort } = props;
  const active = sort.field === field;
  const direction = active && sort.direction === 'asc' ? 'desc' : 'asc';
  return (
    <th scope="col" aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}>
      <button type="button" class="sort-button" onClick={() => props.onSort({ field, direction })}>
        {label}
        {active ? (sort.direction === 'asc' ? ' ↑' : ' ↓') : ''}
        <span class="visually-hidden">
          {active ? t(sort.direction === 'asc' ? 'sort.ascending' : 'sort.descending') : t('sort.sort')}
        </span>
      </button>
    </th>
  );
}

/** One page of files as a table named "Files": each key links to the file's panel. */
export function FilesTable(props: {
  botId: string;
  files: FileObject[];
  sort: Sort;
  onSort(sort: Sort): void;
}) {
  const { botId, files, sort, onSort } = props;
  return (
    <div class="table-box">
      <table class="files-table">
        <caption>{t('section.files')}</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <SortHeading key={c.field} field={c.field} label={t(c.label)} sort={sort} onSort={onSort} />
            ))}
            <th scope="col">{t('files.tags')}</th>
            <SortHeading field="updatedAt" label={t('files.updated')} sort={sort} onSort={onSort} />
          </tr>
        </thead>
        <tbody>
          {files.map((file) => (
            <tr key={file.id}>
              <td class="kn-key-cell">
                <a href={filePath(botId, file.id)}>{file.key}</a>
              </td>
              <td>
                <StatusBadge file={file} />
              </td>
              <td>{formatBytes(file.size)}</td>
              <td>
                {Object.entries(file.tags)
                  .map(([k, v]) => `${k}=${v}`)
                  .join(', ') || '—'}
              </td>
              <td>{formatDateTime(file.updatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
