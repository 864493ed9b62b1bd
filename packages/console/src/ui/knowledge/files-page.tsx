import type { Bot, FileStatus, ListFilesInput } from '@parley/client';
import { useEffect, useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { useLoad, useSettled } from '../../hooks.js';
import { useQueryClient } from '../../query.js';
import { BotFrame, useRouteBot } from '../bot-frame.js';
import { Notice } from '../notice.js';
import { useBotClient } from './file-status.js';
import { FileFilters } from './files-filters.js';
import { FilesTable, type Sort } from './files-table.js';

/** The first page the Files table asks for: every file, the latest changed first. */
const FIRST_PAGE: ListFilesInput = { pageSize: 25, sortField: 'updatedAt', sortDirection: 'desc' };

/** The cache key of a page of a bot's files. */
function pageKey(workspaceId: string | undefined, botId: string, query: ListFilesInput, token?: string) {
  return ['files', workspaceId, botId, JSON.stringify(query), token];
}

/** A bot's files: search by key, filter by tag and state, sort, pages answered by the server. */
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
  // The tokens of the pages up to this one, for the filters they were handed out for: Previous goes back
  // one; other filters (or sort, or page size) start again from the first page.
  const [paging, setPaging] = useState<{ filters: string; tokens: (string | undefined)[] }>({
    filters: '',
    tokens: [undefined],
  });
  const keyContains = useSettled(search.trim(), 250);
  const query: ListFilesInput = {
    pageSize,
    sortField: sort.field,
    sortDirection: sort.direction,
    ...(keyContains ? { keyContains } : {}),
    ...(status ? { status: [status] } : {}),
    ...(tag.key && tag.value ? { tags: { [tag.key]: tag.value } } : {}),
  };
  const filters = JSON.stringify(query);
  const tokens = paging.filters === filters ? paging.tokens : [undefined];
  const setTokens = (tokens: (string | undefined)[]) => setPaging({ filters, tokens });
  const token = tokens[tokens.length - 1];
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
  const next = page.data?.meta.nextToken;

  return (
    <div class="stack">
      <h2>Files</h2>
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
      <Notice error={page.error ?? tagKeys.error} />
      {page.data === undefined ? (
        page.loading ? (
          <p role="status">Loading files…</p>
        ) : null
      ) : page.data.files.length === 0 && tokens.length === 1 ? (
        <p class="empty">
          {filtered
            ? 'No file matches these filters. Change the search, the status or the tag.'
            : 'No files yet. Open a knowledge base on the Knowledge tab and drop documents into it.'}
        </p>
      ) : (
        <FilesTable botId={bot.id} files={page.data.files} sort={sort} onSort={setSort} />
      )}
      <nav class="pager" aria-label="Pages of files">
        <button type="button" disabled={tokens.length === 1} onClick={() => setTokens(tokens.slice(0, -1))}>
          Previous page
        </button>
        <span class="muted">Page {tokens.length}</span>
        <button type="button" disabled={!next} onClick={() => next && setTokens([...tokens, next])}>
          Next page
        </button>
      </nav>
    </div>
  );
}
