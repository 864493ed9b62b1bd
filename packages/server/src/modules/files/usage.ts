import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import {
  type BotUsageSource,
  CHAT_STORAGE_USAGE,
  type FilesService,
  type FilesSettings,
} from './contract.js';
import type { FilesEnv } from './deps.js';
import { filesRepo } from './repo.js';

/** Whether any File Storage quota is set (reservations then take the quota lock). */
export function quotaLimited(quotas: FilesSettings['quotas']): boolean {
  return quotas.workspaceBytes !== null || quotas.botBytes !== null;
}

/** 403 QuotaExceeded unless `used + reserve` fits `limit` (null: unlimited); `of` names whose quota. */
function checkLimit(of: string, limit: number | null, used: number, reserve: number): void {
  if (limit !== null && used + reserve > limit)
    throw errors.quotaExceeded(
      `${of} (${limit} bytes) would be exceeded: ${used} stored or reserved by uploads in progress, ${reserve} more asked`,
    );
}

/** Whose File Storage a new reservation is counted in: the team's (no chat user) or a chat user's. */
export interface QuotaHolder {
  botId: string;
  workspaceId: string;
  /** The chat user uploading through the Chat API (counted apart from the team's files). */
  chatUserId?: string | undefined;
}

/**
 * 403 QuotaExceeded unless a file holding `reserve` bytes fits the quotas, counting every other file's
 * reservation that may still be used at `now` (`replacing`: the file whose own reservation this one replaces).
 * The team's files count against the workspace and bot quotas; a chat user's upload against the chat quota of
 * the workspace and that user's caps (files and bytes) instead. Atomic only inside a transaction that took
 * `lockQuota` first, as upsert and copy do.
 */
export async function checkQuota(
  conn: Kysely<Database>,
  quotas: FilesSettings['quotas'],
  holder: QuotaHolder,
  reserve: number,
  now: string,
  replacing?: string,
): Promise<void> {
  const repo = filesRepo(conn);
  if (holder.chatUserId !== undefined) {
    const mine = await repo.chatUserHolds(holder.botId, holder.chatUserId, now);
    if (mine.files + 1 > quotas.chatUserFiles)
      throw errors.quotaExceeded(
        `A chat user may hold at most ${quotas.chatUserFiles} uploaded files on this bot (PARLEY_CHAT_MAX_FILES_PER_USER); this one holds ${mine.files}`,
      );
    checkLimit('The chat file storage of one chat user', quotas.chatUserBytes, mine.bytes, reserve);
    if (quotas.chatBytes !== null) {
      const used = await repo.storedBytes({ workspaceId: holder.workspaceId, chat: true }, now, replacing);
      checkLimit('The chat file storage quota of this workspace', quotas.chatBytes, used, reserve);
    }
    return;
  }
  if (quotas.workspaceBytes !== null) {
    const used = await repo.storedBytes({ workspaceId: holder.workspaceId }, now, replacing);
    checkLimit('File Storage quota of this workspace', quotas.workspaceBytes, used, reserve);
  }
  if (quotas.botBytes !== null) {
    const used = await repo.storedBytes({ botId: holder.botId }, now, replacing);
    checkLimit('File Storage quota of this bot', quotas.botBytes, used, reserve);
  }
}

/** File Storage figures: a bot's usages (with what other modules add), stored bytes. */
export function filesUsage(
  env: FilesEnv,
): Pick<FilesService, 'botUsages' | 'addBotUsageSource' | 'storedBytes'> {
  const sources: BotUsageSource[] = [];
  return {
    async botUsages(actor, botId) {
      await env.bots.get(actor, botId);
      authorize(actor, 'usage.read');
      const repo = filesRepo(env.db);
      const value = await repo.storedBytes({ botId }, undefined);
      const chat = await repo.storedBytes({ botId, chat: true }, undefined);
      const period = env.now().slice(0, 7);
      const extra = (await Promise.all(sources.map((source) => source(botId)))).flat();
      return [
        { id: botId, period, type: 'storage_count', value, quota: env.settings.quotas.botBytes },
        { id: botId, period, type: CHAT_STORAGE_USAGE, value: chat, quota: null },
        ...extra.map((u) => ({ id: botId, period, ...u })),
      ];
    },
    addBotUsageSource(source) {
      sources.push(source);
    },
    storedBytes: (where) => filesRepo(env.db).storedBytes(where, undefined),
  };
}
