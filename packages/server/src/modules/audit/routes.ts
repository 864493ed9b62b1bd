import { AuditRecord, PageQuery } from '@parley/protocol';
import { WORKSPACE_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { errors } from '../../errors/errors.js';
import { ADMIN_SECURITY, operations } from '../../http/operation.js';
import { IdParam, pageBody, pageOf } from '../../http/route-helpers.js';
import { AUDIT_ACTIONS, type AuditService } from './service.js';

/** The workspace audit trail. */
export function auditRoutes(app: FastifyInstance, deps: { audit: AuditService }) {
  const op = operations(app, { tags: ['workspaces'], security: ADMIN_SECURITY });
  op(
    WORKSPACE_OPERATIONS.getAuditRecords,
    {
      description:
        'Every Admin mutation of the workspace, newest first (manager and above); `action` and `userId` narrow it to one action or one actor.',
      params: IdParam,
      query: Type.Object({
        ...PageQuery,
        action: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 100,
            description: `Only records of this action: ${AUDIT_ACTIONS.join(', ')}`,
          }),
        ),
        userId: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 100,
            description: 'Only records of this account (the actor)',
          }),
        ),
      }),
      response: pageOf('records', AuditRecord),
    },
    async (req) => {
      if (req.params.id !== req.actor.workspaceId) throw errors.notFound('Workspace', req.params.id);
      return pageBody('records', await deps.audit.list(req.actor, req.query));
    },
  );
}
