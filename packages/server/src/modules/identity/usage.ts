import type { Usage } from '@parley/protocol';
import { authorize } from '../../access/policy.js';
import type { IdentityContext } from './context.js';
import type { IdentityUsage, UsageSource } from './contract.js';
import { identityRepo } from './repo.js';
import { actorWorkspace } from './workspaces.js';

/** The usage figures of a workspace: its own counts and those other modules add (addUsageSource). */
export function identityUsage(ctx: IdentityContext): IdentityUsage {
  const { db, now, config } = ctx;
  const sources: UsageSource[] = [];
  return {
    async usages(actor, id) {
      await actorWorkspace(db, actor, id);
      authorize(actor, 'usage.read');
      const repo = identityRepo(db);
      const period = now().slice(0, 7);
      const figure = (type: string, value: number, quota: number | null): Usage => ({
        id,
        period,
        type,
        value,
        quota,
      });
      return [
        figure('bot_count', await repo.countBots(id), config.quotas.botsPerWorkspace),
        figure('workspace_member_count', await repo.countMembers(id), null),
        figure('integration_count', await repo.countIntegrations(id), null),
        ...(await Promise.all(sources.map((source) => source(id))))
          .flat()
          .map((u) => figure(u.type, u.value, u.quota)),
      ];
    },

    addUsageSource(source) {
      sources.push(source);
    },
  };
}
