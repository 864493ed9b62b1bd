import { errors } from '../../errors/errors.js';
import { newId } from '../../ids.js';
import { type ChatContext, conversationFor } from './context.js';
import type { ChatService } from './contract.js';

/** A file name safe as the last segment of a file key: no control characters, no slashes. */
export function safeFileName(name: string): string {
  const cleaned = [...name]
    .map((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      return code < 0x20 || code === 0x7f || ch === '/' || ch === '\\' ? '_' : ch;
    })
    .join('')
    .slice(0, 200);
  return cleaned.replace(/^\.+$/, '_') || 'file';
}

/** Chat files: uploads of a conversation, stored through the files module. */
export function chatFiles(ctx: Pick<ChatContext, 'db' | 'files'>): Pick<ChatService, 'createFile'> {
  return {
    /**
     * A chat file upload (only with allowFileUpload in the webchat configuration): a public_content file
     * of the bot, owned by the chat user, tagged with its conversation; PUT the bytes to `uploadUrl`. It
     * counts against the workspace's chat file storage and the chat user's caps, not the team's quotas.
     */
    async createFile(caller, body) {
      if (caller.bot.webchat.allowFileUpload !== true)
        throw errors.forbidden(
          'File upload is disabled for this bot: enable allowFileUpload in its webchat configuration (PUT /v1/admin/bots/{id}/webchat)',
        );
      await conversationFor(ctx.db, caller, body.conversationId, 'write');
      const safeName = safeFileName(body.name);
      const file = await ctx.files.upsert(
        {
          actor: { kind: 'bot', botId: caller.bot.id },
          botId: caller.bot.id,
          workspaceId: caller.bot.workspaceId,
        },
        {
          key: `webchat/${body.conversationId}/${newId('file').slice(5)}/${safeName}`,
          size: body.size,
          ...(body.contentType ? { contentType: body.contentType } : {}),
          accessPolicies: ['public_content'],
          tags: { source: 'webchat', conversationId: body.conversationId, userId: caller.userId },
        },
        // A chat user's upload counts apart from the team's files, against that user's caps.
        caller.isBot ? {} : { owner: { type: 'user', id: caller.userId }, chatUserId: caller.userId },
      );
      return {
        id: file.id,
        key: file.key,
        size: body.size,
        contentType: file.contentType,
        uploadUrl: file.uploadUrl,
        url: file.url,
      };
    },
  };
}
