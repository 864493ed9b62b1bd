import type { Bot, FileStatus, ListFilesInput } from '@parley/client';
import { useEffect, useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { formatCount } from '../../format.js';
import { useLoad, useSettled } from '../../hooks.js';
import { t } from '../../i18n.js';
import { useQueryClient } from '../../query.js';
import { BotFrame, useRouteBot } from '../bot-frame.js';
import { ListState } from '../list-state.js';
import { Pager, usePager } from '../operations/pager.js';
import { useBotClient } from './file-status.js';
import { FileFilters } from './files-filters.js';
import { FilesTable, type Sort } from './files-table.js';

/** The first page the Files table asks for: every file, the latest changed first. */
const FIRST_PAGE: ListFilesInput = { pageSize: 25, sortField: 'updatedAt', sortDirection: 'desc' };

/** The cache key of a page of a bot's files. */
function pageKey(workspaceId: string | undefined, botId: string, query: ListFilesInput, token?: string) {
  return ['files', workspaceId, botId, JSON.stringify(query), token];
}

/** A bot's files: how many, search by name, filter by tag and state, sort, pages answered by the server. */
export function FilesPage() {
  // The first page is asked for at once, beside the bot the frame loads (not after it): the table shows
  // sooner, from the same cache entry.
  const { workspace } = useConsole();
  const { id } = useRouteBot();
  const files = useBotClient(id);
  const cache = useQueryClient();
  useEffect(() => {
    void cache.prefetchQuery({
      queryKey: pageKey(workspace?.id, id, FIRST_PAGE),
      queryFn: () => files.listFiles(FIRST_PAGE),
    });
  }, [cache, files, workspace?.id, id]);
  return <BotFrame>{(bot) => <Files bot={bot} />}</BotFrame>;
}

function Files({ bot }: { bot: Bot }) {
  const { workspace } = useConsole();
  const files = useBotClient(bot.id);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<FileStatus | ''>('');
  const [tag, setTag] = useState({ key: '', value: '' });
  const [sort, setSort] = useState<Sort>({ field: 'updatedAt', direction: 'desc' });
  const [pageSize, setPageSize] = useState(FIRST_PAGE.pageSize ?? 25);
  const keyContains = useSettled(search.trim(), 250);
  const query: ListFilesInput = {
    pageSize,
    sortField: sort.field,
    sortDirection: sort.direction,
    ...(keyContains ? { keyContains } : {}),
    ...(status ? { status: [status] } : {}),
    ...(tag.key && tag.value ? { tags: { [tag.key]: tag.value } } : {}),
  };
  // Other filters (or sort, or page size) start again from the first page.
  const pager = usePager(JSON.stringify(query));
  const token = pager.token;
  const page = useLoad(pageKey(workspace?.id, bot.id, query, token), () =>
    files.listFiles({ ...query, nextToken: token }),
  );
  const tagKeys = useLoad(['file-tags', workspace?.id, bot.id], () => files.list.fileTags().collect());
  const tagValues = useLoad(
    ['file-tag-values', workspace?.id, bot.id, tag.key],
    () => files.list.fileTagValues({ tag: tag.key }).collect(),
    { enabled: tag.key !== '' },
  );
  const filtered = Boolean(keyContains || status || (tag.key && tag.value));
  const total = page.data?.meta.total;

  return (
    <div class="stack">
      <div class="page-head">
        <h2>{t('section.files')}</h2>
        {total === undefined ? null : (
          <span class="muted files-total">
            {filtered
              ? formatCount('files.matchOne', 'files.match', total)
              : formatCount('count.file', 'count.files', total)}
          </span>
        )}
      </div>
      <FileFilters
        search={search}
        onSearch={setSearch}
        status={status}
        onStatus={setStatus}
        pageSize={pageSize}
        onPageSize={setPageSize}
        tag={tag}
        onTag={setTag}
        tagKeys={tagKeys.data ?? []}
        tagValues={tagValues.data ?? []}
      />
      <ListState
        of={{ error: page.error ?? tagKeys.error, loading: page.loading, data: page.data?.files }}
        loadingWords={t('files.loading')}
        empty={pager.page > 1 ? undefined : filtered ? t('files.noMatch') : t('files.empty')}
      >
        {(list) => <FilesTable botId={bot.id} files={list} sort={sort} onSort={setSort} />}
      </ListState>
      <Pager label={t('files.pages')} pager={pager} nextToken={page.data?.meta.nextToken} />
    </div>
  );
}
