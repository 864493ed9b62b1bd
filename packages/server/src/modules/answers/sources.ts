import type { ChatMessage, FileObject } from '@parley/protocol';
import { ApiError, errors } from '../../errors/errors.js';
import type { SourceLinks } from '../chat/contract.js';
import type { FilesService } from '../files/service.js';
import type { KnowledgeBaseService } from '../knowledge/contract.js';
import { botContext, knowledgeScope } from './scope.js';

/** What a source link answers (404) once its file is deleted or out of the bot's knowledge. */
export const SOURCE_GONE_TEXT =
  "This source is no longer available: its file was deleted or removed from the bot's knowledge base.";

/** What a source link answers (404) when the bot's `sourceLinks` setting does not link its source. */
export const SOURCE_NOT_LINKED_TEXT = 'This source is not linked: the bot names it without sharing the file.';

/** Which sources of its answers a bot links (its `sourceLinks` setting). */
export type SourceLinksSetting = 'none' | 'public' | 'all';

/** The longest `sourceUrl` linked, in characters. */
const MAX_SOURCE_URL = 2048;

/**
 * A file metadata's `sourceUrl` when it is an http(s) URL a visitor may be sent to (no credentials in it, at
 * most 2048 characters), else undefined: never a `javascript:`, `data:` or other scheme.
 * @example webSourceUrl('https://example.com/faq') // 'https://example.com/faq'
 * @example webSourceUrl('javascript:alert(1)') // undefined
 */
export function webSourceUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_SOURCE_URL) return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  return url.href;
}

/**
 * Where a source of a bot's answer may lead under the bot's setting, or undefined when it is named without a
 * link. `all`: the stored file (its download URL, at the passage's page). `public`: the `sourceUrl` its metadata
 * names (http or https), else the permanent URL of a public_content file, else nothing. `none`: nothing.
 */
export function sourceTarget(
  setting: SourceLinksSetting,
  file: Pick<FileObject, 'url' | 'contentType' | 'accessPolicies' | 'metadata'>,
  pageNumber: number | undefined,
): string | undefined {
  if (setting === 'none') return undefined;
  if (setting === 'all') return atPage(file.url, file.contentType, pageNumber);
  const sourceUrl = webSourceUrl(file.metadata?.sourceUrl);
  if (sourceUrl) return sourceUrl;
  if (file.accessPolicies.includes('public_content')) return atPage(file.url, file.contentType, pageNumber);
  return undefined;
}

/**
 * The permanent link to source `n` of a bot message (its index in the message's `metadata.sources`): it
 * redirects to a fresh download URL each time it is opened ({@link sourceLinks}).
 * @example sourceLinkUrl('https://parley.example.com', 'b1', 'msg_01K…', 0) // 'https://parley.example.com/v1/chat/b1/messages/msg_01K…/sources/0'
 */
export function sourceLinkUrl(publicUrl: string, botId: string, messageId: string, n: number): string {
  return `${publicUrl}/v1/chat/${encodeURIComponent(botId)}/messages/${encodeURIComponent(messageId)}/sources/${n}`;
}

/**
 * The URL a source opens at: a PDF at the passage's page (`#page=N`, which browsers' PDF viewers follow), any
 * other file as it is.
 */
export function atPage(url: string, contentType: string | undefined, pageNumber: number | undefined): string {
  if (!pageNumber || !contentType?.toLowerCase().startsWith('application/pdf')) return url;
  return `${url.replace(/#.*$/u, '')}#page=${pageNumber}`;
}

/** What source links are resolved with. */
export interface SourceLinksDeps {
  /** The Chat API's bots (404 unknown, 403 disabled) and bot messages (the chat service). */
  chat: {
    bot(botId: string): Promise<{ id: string; workspaceId: string; sourceLinks: SourceLinksSetting }>;
    botMessage(botId: string, messageId: string): Promise<Pick<ChatMessage, 'metadata'> | undefined>;
  };
  knowledgeBases: Pick<KnowledgeBaseService, 'list' | 'fileIdsOf'>;
  files: Pick<FilesService, 'get'>;
}

/**
 * The {@link SourceLinks} of the bot's knowledge answers. A link names a bot message and a source of it,
 * never a file: each time it is opened, the file must still exist, still be readable by the bot and, when
 * the bot has knowledge bases, still be linked to one of them, and the bot's CURRENT `sourceLinks` setting
 * must link it ({@link sourceTarget}: a link made under `all` stops opening a private file once the bot is
 * switched to `public`; under `none` no link opens). The link then redirects to a URL made for that moment:
 * the metadata's `sourceUrl` (`public`), the permanent URL of a public_content file, or a download URL signed
 * for PARLEY_DOWNLOAD_URL_TTL_SECONDS (`all`). So the link works as long as the answer, its source and the
 * setting allow, and hands out no long-lived capability to the file itself.
 */
export function sourceLinks(deps: SourceLinksDeps): SourceLinks {
  return {
    async open(botId: string, messageId: string, n: number): Promise<string> {
      const bot = await deps.chat.bot(botId);
      if (bot.sourceLinks === 'none') throw new ApiError('ResourceNotFound', SOURCE_NOT_LINKED_TEXT);
      const message = await deps.chat.botMessage(bot.id, messageId);
      if (!message) throw errors.notFound('Message', messageId);
      const sources = message.metadata?.sources;
      const source = Array.isArray(sources) && Number.isInteger(n) && n >= 0 ? sources[n] : undefined;
      const fileId = (source as { fileId?: unknown } | undefined)?.fileId;
      if (typeof fileId !== 'string' || !fileId)
        throw new ApiError('ResourceNotFound', `Message "${messageId}" has no source ${n}`);

      const ctx = botContext(bot.workspaceId, bot.id);
      const scope = await knowledgeScope(deps.knowledgeBases, ctx);
      if (scope.fileIds && !scope.fileIds.includes(fileId))
        throw new ApiError('ResourceNotFound', SOURCE_GONE_TEXT);
      const file = await deps.files.get(ctx, fileId).catch((error: unknown) => {
        if (error instanceof ApiError && (error.type === 'ResourceNotFound' || error.type === 'Forbidden'))
          throw new ApiError('ResourceNotFound', SOURCE_GONE_TEXT);
        throw error;
      });
      // files.get also finds a file by key: only the very file the answer quoted will do.
      if (file.id !== fileId) throw new ApiError('ResourceNotFound', SOURCE_GONE_TEXT);
      const page = (source as { pageNumber?: unknown }).pageNumber;
      const target = sourceTarget(bot.sourceLinks, file, typeof page === 'number' ? page : undefined);
      if (!target) throw new ApiError('ResourceNotFound', SOURCE_NOT_LINKED_TEXT);
      return target;
    },
  };
}
