import type { FileObject } from '@parley/protocol';
import type { Logger } from '../../logger.js';
import type { ReplyRequest } from '../chat/contract.js';
import type { FilesContext, FilesService } from '../files/service.js';
import type { PassagesService } from '../knowledge/contract.js';
import type { Quote } from './extract.js';
import type { AnswerSource } from './format.js';
import { type SourceLinksSetting, sourceLinkUrl, sourceTarget } from './sources.js';

// The sources of an answer as its reply names and links them: each quote's file, title, page and link.

/** Passages read from the start of a file for its first heading. */
const HEADING_SCAN = 20;

/**
 * The title a source is shown with: its metadata's `title`, else its first heading (a title or subtitle passage
 * among its first 20), else its file name (the key without folders).
 */
async function titleOf(
  passages: Pick<PassagesService, 'list'> | undefined,
  ctx: FilesContext,
  file: FileObject,
): Promise<string> {
  const title = file.metadata.title;
  if (typeof title === 'string' && title.trim()) return title.trim();
  const first = await passages
    ?.list(ctx, file.id, { limit: HEADING_SCAN })
    .then((page) => page.items.find((p) => p.meta.subtype === 'title' || p.meta.subtype === 'subtitle'))
    .catch(() => undefined);
  const heading = first?.content.replace(/\s+/g, ' ').trim();
  if (heading) return heading.length > 120 ? `${heading.slice(0, 119)}…` : heading;
  return file.key.slice(file.key.lastIndexOf('/') + 1) || file.key;
}

/**
 * The answer's sources: each quote (of its selection) with its passage, its file's title and, when the bot's `sourceLinks`
 * setting links it ({@link sourceTarget}), a URL a chat user can open; otherwise no URL (named only).
 */
export async function sourcesOf(
  {
    files,
    passages: filePassages,
  }: {
    files: Pick<FilesService, 'get'>;
    passages?: Pick<PassagesService, 'list'> | undefined;
  },
  log: Logger,
  ctx: FilesContext,
  quotes: readonly Quote[],
  setting: SourceLinksSetting,
): Promise<AnswerSource[]> {
  const passages = quotes.map((q) => q.passage);
  const found = new Map<string, { title: string; file: FileObject }>();
  for (const id of new Set(passages.map((p) => p.file.id))) {
    try {
      const file = await files.get(ctx, id);
      found.set(id, { title: await titleOf(filePassages, ctx, file), file });
    } catch (error) {
      // Deleted since the search (or unreadable): named by its key, without a link.
      log.info(
        { fileId: id, err: error },
        'A source file could not be read; it is named by its key, unlinked',
      );
    }
  }
  return quotes.map((q, i) => {
    const p = q.passage;
    const file = found.get(p.file.id)?.file;
    const url = file && sourceTarget(setting, file, p.meta.pageNumber);
    // Only a stored file's signed URL (under `all`) expires.
    const expires = url !== undefined && setting === 'all' && file ? expiryOf(file.url) : Number.NaN;
    return {
      n: i + 1,
      fileId: p.file.id,
      key: p.file.key,
      title: found.get(p.file.id)?.title ?? p.file.key,
      url,
      ...(Number.isFinite(expires) ? { urlExpiresAt: new Date(expires).toISOString() } : {}),
      ...(p.meta.pageNumber ? { pageNumber: p.meta.pageNumber } : {}),
      score: p.score,
      content: q.text,
      ...(q.heading.length > 0 ? { heading: q.heading } : {}),
      passage: p.content,
    };
  });
}

/** When a signed download URL stops working (ms since the epoch), NaN for a permanent URL. */
function expiryOf(url: string): number {
  try {
    return Number(new URL(url).searchParams.get('expires') ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/**
 * The sources as the reply lists them, in the order of its metadata.sources: linked for good (the Chat API's
 * source links) when the reply's message id and the public URL are known.
 */
export function linkedSources(
  input: { request: Pick<ReplyRequest, 'messageId' | 'botId'>; publicUrl: string | undefined },
  list: AnswerSource[],
): AnswerSource[] {
  const { messageId, botId } = input.request;
  const { publicUrl } = input;
  if (!messageId || !publicUrl) return list;
  return list.map(({ urlExpiresAt: _expires, ...s }, i) =>
    s.url === undefined ? s : { ...s, url: sourceLinkUrl(publicUrl, botId, messageId, i) },
  );
}
