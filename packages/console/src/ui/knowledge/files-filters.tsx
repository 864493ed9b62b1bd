import type { FileStatus } from '@parley/client';
import { t } from '../../i18n.js';
import { Field } from '../field.js';
import { type Choice, SelectField } from '../select-field.js';
import { FILE_STATUSES, fileStatusWords } from './file-status.js';

const PAGE_SIZES = [10, 25, 50, 100];

const statusChoices = (): Choice<FileStatus | ''>[] => [
  { value: '', label: t('files.anyStatus') },
  ...FILE_STATUSES.map((s) => ({ value: s, label: fileStatusWords(s) })),
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
      <Field
        id="files-search"
        type="search"
        label={t('files.searchByName')}
        value={props.search}
        maxLength={1024}
        onValue={props.onSearch}
      />
      <SelectField
        id="files-status"
        label={t('files.status')}
        value={props.status}
        choices={statusChoices()}
        onValue={props.onStatus}
      />
      <SelectField
        id="files-page-size"
        label={t('files.perPage')}
        value={String(props.pageSize)}
        choices={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
        onValue={(n) => props.onPageSize(Number(n))}
      />
      <SelectField
        id="files-tag"
        label={t('files.tag')}
        value={props.tag.key}
        choices={[
          { value: '', label: t('files.anyTag') },
          ...props.tagKeys.map((k) => ({ value: k, label: k })),
        ]}
        onValue={(key) => props.onTag({ key, value: '' })}
      />
      {props.tag.key ? (
        <SelectField
          id="files-tag-value"
          label={t('files.tagValue')}
          value={props.tag.value}
          choices={[
            { value: '', label: t('files.chooseValue') },
            ...props.tagValues.map((v) => ({ value: v, label: v })),
          ]}
          onValue={(value) => props.onTag({ key: props.tag.key, value })}
        />
      ) : null}
    </div>
  );
}
