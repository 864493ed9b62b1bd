import type { FileStatus } from '@parley/client';
import { FILE_STATUS_WORDS, FILE_STATUSES } from './file-status.js';

const PAGE_SIZES = [10, 25, 50, 100];

/** A tag filter: a key and its value (both empty: any tag). */
export interface TagChoice {
  key: string;
  value: string;
}

/** The Files table's filters: search by key, status, page size, and a tag (its key, then one of its values). */
export function FileFilters(props: {
  search: string;
  onSearch(search: string): void;
  status: FileStatus | '';
  onStatus(status: FileStatus | ''): void;
  pageSize: number;
  onPageSize(size: number): void;
  tag: TagChoice;
  onTag(tag: TagChoice): void;
  tagKeys: string[];
  tagValues: string[];
}) {
  return (
    <div class="card files-filters">
      <div class="field">
        <label for="files-search">Search by name</label>
        <input
          id="files-search"
          type="search"
          value={props.search}
          maxLength={1024}
          onInput={(event) => props.onSearch(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="files-status">Status</label>
        <select
          id="files-status"
          value={props.status}
          onChange={(event) => props.onStatus(event.currentTarget.value as FileStatus | '')}
        >
          <option value="">Any status</option>
          {FILE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {FILE_STATUS_WORDS[s]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="files-page-size">Files per page</label>
        <select
          id="files-page-size"
          value={String(props.pageSize)}
          onChange={(event) => props.onPageSize(Number(event.currentTarget.value))}
        >
          {PAGE_SIZES.map((n) => (
            <option key={n} value={String(n)}>
              {n}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="files-tag">Tag</label>
        <select
          id="files-tag"
          value={props.tag.key}
          onChange={(event) => props.onTag({ key: event.currentTarget.value, value: '' })}
        >
          <option value="">Any tag</option>
          {props.tagKeys.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </div>
      {props.tag.key ? (
        <div class="field">
          <label for="files-tag-value">Tag value</label>
          <select
            id="files-tag-value"
            value={props.tag.value}
            onChange={(event) => props.onTag({ key: props.tag.key, value: event.currentTarget.value })}
          >
            <option value="">Choose a value</option>
            {props.tagValues.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </div>
  );
}
