import { authorize } from '../../access/policy.js';
import { isUniqueViolation } from '../../db/database.js';
import { errors } from '../../errors/errors.js';
import type { Cursor } from '../../http/pagination.js';
import { readPage } from '../../http/route-helpers.js';
import { newId } from '../../ids.js';
import { auditWho } from '../audit/service.js';
import { type IntegrationsContext, loadIntegration, toIntegration } from './context.js';
import type { IntegrationCatalog } from './contract.js';
import { type IntegrationRow, integrationsRepo } from './repo.js';

/** The integrations of the actor's workspace: listed, created (one per name), read and deleted. */
export function integrationCatalog(ctx: IntegrationsContext): IntegrationCatalog {
  const { db, now, audit } = ctx;
  return {
    async list(actor, query) {
      authorize(actor, 'integration.read');
      const rows = (limit: number, after: Cursor | undefined) =>
        integrationsRepo(db).list(actor.workspaceId, limit, after);
      return readPage(query, { sort: 'id:asc', rows, toItem: toIntegration });
    },

    async create(actor, body) {
      authorize(actor, 'integration.create');
      const at = now();
      const row: IntegrationRow = {
        id: newId('int'),
        workspace_id: actor.workspaceId,
        name: body.name,
        description: body.description ?? '',
        created_by: actor.kind === 'member' ? actor.accountId : '',
        created_at: at,
        updated_at: at,
      };
      try {
        await db.transaction().execute(async (tx) => {
          await integrationsRepo(tx).insert(row);
          await audit.record(tx, actor.workspaceId, auditWho(actor), {
            action: 'CREATE_INTEGRATION',
            resourceId: row.id,
            resourceName: row.name,
          });
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw errors.alreadyExists(`An integration named "${body.name}" already exists in this workspace`);
        throw error;
      }
      return toIntegration(row);
    },

    async get(actor, id) {
      authorize(actor, 'integration.read');
      return toIntegration(await loadIntegration(db, actor, id));
    },

    async delete(actor, id) {
      const row = await loadIntegration(db, actor, id);
      authorize(actor, 'integration.delete', { createdBy: row.created_by });
      await db.transaction().execute(async (tx) => {
        await integrationsRepo(tx).delete(id);
        await audit.record(tx, actor.workspaceId, auditWho(actor), {
          action: 'DELETE_INTEGRATION',
          resourceId: id,
          resourceName: row.name,
        });
      });
    },
  };
}
