import type { FileStatus } from '@parley/client';
import { type Choice, SelectField } from '../select-field.js';
import { FILE_STATUS_WORDS, FILE_STATUSES } from './file-status.js';

const PAGE_SIZES = [10, 25, 50, 100];

const STATUS_CHOICES: Choice<FileStatus | ''>[] = [
  { value: '', label: 'Any status' },
  ...FILE_STATUSES.map((s) => ({ value: s, label: FILE_STATUS_WORDS[s] })),
];

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
      <SelectField
        id="files-status"
        label="Status"
        value={props.status}
        choices={STATUS_CHOICES}
        onValue={props.onStatus}
      />
      <SelectField
        id="files-page-size"
        label="Files per page"
        value={String(props.pageSize)}
        choices={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
        onValue={(n) => props.onPageSize(Number(n))}
      />
      <SelectField
        id="files-tag"
        label="Tag"
        value={props.tag.key}
        choices={[{ value: '', label: 'Any tag' }, ...props.tagKeys.map((k) => ({ value: k, label: k }))]}
        onValue={(key) => props.onTag({ key, value: '' })}
      />
      {props.tag.key ? (
        <SelectField
          id="files-tag-value"
          label="Tag value"
          value={props.tag.value}
          choices={[
            { value: '', label: 'Choose a value' },
            ...props.tagValues.map((v) => ({ value: v, label: v })),
          ]}
          onValue={(value) => props.onTag({ key: props.tag.key, value })}
        />
      ) : null}
    </div>
  );
}
