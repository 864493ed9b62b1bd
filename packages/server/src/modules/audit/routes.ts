import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AuditRecord, ListMeta, PageQuery } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { errors } from '../../errors/errors.js';
import { BEARER, pageBody, responses } from '../../http/route-helpers.js';
import type { AuditService } from './service.js';

/** The workspace audit trail. */
export function auditRoutes(fastify: FastifyInstance, deps: { audit: AuditService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/workspaces/:id/audit-records',
    {
      schema: {
        operationId: 'admin.getAuditRecords',
        tags: ['workspaces'],
        security: BEARER,
        description: 'Every Admin mutation of the workspace, newest first (manager and above).',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: Type.Object(PageQuery),
        response: responses(200, Type.Object({ records: Type.Array(AuditRecord), meta: ListMeta })),
      },
    },
    async (req) => {
      if (req.params.id !== req.actor.workspaceId) throw errors.notFound('Workspace', req.params.id);
      return pageBody('records', await deps.audit.list(req.actor, req.query));
    },
  );
}
