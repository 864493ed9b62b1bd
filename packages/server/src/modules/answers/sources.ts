import type { ChatMessage } from '@parley/protocol';
import { ApiError, errors } from '../../errors/errors.js';
import type { SourceLinks } from '../chat/reply-port.js';
import type { FilesService } from '../files/service.js';
import type { KnowledgeBaseService } from '../knowledge/knowledge-bases.js';
import { botContext, knowledgeScope } from './scope.js';

/** What a source link answers (404) once its file is deleted or out of the bot's knowledge. */
export const SOURCE_GONE_TEXT =
  "This source is no longer available: its file was deleted or removed from the bot's knowledge base.";

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
    bot(botId: string): Promise<{ id: string; workspaceId: string }>;
    botMessage(botId: string, messageId: string): Promise<Pick<ChatMessage, 'metadata'> | undefined>;
  };
  knowledgeBases: Pick<KnowledgeBaseService, 'list' | 'fileIdsOf'>;
  files: Pick<FilesService, 'get'>;
}

/**
 * The {@link SourceLinks} of the bot's knowledge answers. A link names a bot message and a source of it,
 * never a file: each time it is opened, the file must still exist, still be readable by the bot and, when
 * the bot has knowledge bases, still be linked to one of them; the link then redirects to a download URL
 * made for that moment (signed for PARLEY_DOWNLOAD_URL_TTL_SECONDS for a private file, permanent for a
 * public_content one). So the link works as long as the answer and its source do, and hands out no
 * long-lived capability to the file itself.
 */
export function sourceLinks(deps: SourceLinksDeps): SourceLinks {
  return {
    async open(botId: string, messageId: string, n: number): Promise<string> {
      const bot = await deps.chat.bot(botId);
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
      return atPage(file.url, file.contentType, typeof page === 'number' ? page : undefined);
    },
  };
}
