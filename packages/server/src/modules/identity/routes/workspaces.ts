import { CreateWorkspaceBody, Empty, UpdateWorkspaceBody, Usage, Workspace } from '@parley/protocol';
import { WORKSPACE_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import { ADMIN_SECURITY, operations } from '../../../http/operation.js';
import { empty, listOf, pageBody, pageOf } from '../../../http/route-helpers.js';
import type { IdentityService } from '../contract.js';
import { IdParam, Page } from './params.js';

/** Workspaces: the caller's list and new ones (by account), and the workspace the caller acts in. */
export function workspaceRoutes(app: FastifyInstance, { identity }: { identity: IdentityService }) {
  const op = operations(app, { tags: ['workspaces'], security: ADMIN_SECURITY });

  op(
    WORKSPACE_OPERATIONS.listWorkspaces,
    {
      query: Page,
      response: pageOf('workspaces', Workspace),
    },
    async (req) => pageBody('workspaces', await identity.listWorkspaces(req.principal, req.query)),
  );

  op(
    WORKSPACE_OPERATIONS.createWorkspace,
    {
      body: CreateWorkspaceBody,
      status: 201,
      response: Workspace,
    },
    async (req) => identity.createWorkspace(req.principal, req.body),
  );

  op(WORKSPACE_OPERATIONS.getWorkspace, { params: IdParam, response: Workspace }, async (req) =>
    identity.getWorkspace(req.actor, req.params.id),
  );

  op(
    WORKSPACE_OPERATIONS.updateWorkspace,
    { params: IdParam, body: UpdateWorkspaceBody, response: Workspace },
    async (req) => identity.updateWorkspace(req.actor, req.params.id, req.body),
  );

  op(WORKSPACE_OPERATIONS.deleteWorkspace, { params: IdParam, response: Empty }, async (req) =>
    empty(identity.deleteWorkspace(req.actor, req.params.id)),
  );

  op(
    WORKSPACE_OPERATIONS.listWorkspaceUsages,
    {
      params: IdParam,
      response: listOf('usages', Usage),
    },
    async (req) => ({ usages: await identity.usages(req.actor, req.params.id) }),
  );
}
