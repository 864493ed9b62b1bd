import type { Kysely } from 'kysely';
import { authorize } from '../../access/policy.js';
import type { Database } from '../../db/schema.js';
import { errors } from '../../errors/errors.js';
import type { BotUsageSource, FilesContext, FilesService, FilesSettings } from './contract.js';
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
      `File Storage quota of ${of} (${limit} bytes) would be exceeded: ${used} used, ${reserve} more asked`,
    );
}

/**
 * 403 QuotaExceeded unless a file holding `reserve` bytes fits the quotas, counting every other file's
 * reservation (`replacing`: the file whose own reservation this one replaces). Atomic only inside a
 * transaction that took `lockQuota` first, as upsert and copy do.
 */
export async function checkQuota(
  conn: Kysely<Database>,
  quotas: FilesSettings['quotas'],
  ctx: Pick<FilesContext, 'botId' | 'workspaceId'>,
  reserve: number,
  replacing?: string,
): Promise<void> {
  const repo = filesRepo(conn);
  if (quotas.workspaceBytes !== null) {
    const used = await repo.storedBytes({ workspaceId: ctx.workspaceId }, true, replacing);
    checkLimit('this workspace', quotas.workspaceBytes, used, reserve);
  }
  if (quotas.botBytes !== null) {
    const used = await repo.storedBytes({ botId: ctx.botId }, true, replacing);
    checkLimit('this bot', quotas.botBytes, used, reserve);
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
      const value = await filesRepo(env.db).storedBytes({ botId }, false);
      const period = env.now().slice(0, 7);
      const extra = (await Promise.all(sources.map((source) => source(botId)))).flat();
      return [
        { id: botId, period, type: 'storage_count', value, quota: env.settings.quotas.botBytes },
        ...extra.map((u) => ({ id: botId, period, ...u })),
      ];
    },
    addBotUsageSource(source) {
      sources.push(source);
    },
    storedBytes: (where) => filesRepo(env.db).storedBytes(where, false),
  };
}
