import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  CreateWorkspaceBody,
  Empty,
  ListMeta,
  UpdateWorkspaceBody,
  Usage,
  Workspace,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, pageBody, responses } from '../../../http/route-helpers.js';
import type { IdentityService } from '../contract.js';
import { IdParam, Page } from './params.js';

/** Workspaces: the caller's list and new ones (by account), and the workspace the caller acts in. */
export function workspaceRoutes(fastify: FastifyInstance, deps: { identity: IdentityService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { identity } = deps;

  app.get(
    '/workspaces',
    {
      config: { auth: 'account' },
      schema: {
        operationId: 'admin.listWorkspaces',
        tags: ['workspaces'],
        security: BEARER,
        querystring: Page,
        response: responses(200, Type.Object({ workspaces: Type.Array(Workspace), meta: ListMeta })),
      },
    },
    async (req) => pageBody('workspaces', await identity.listWorkspaces(req.principal, req.query)),
  );

  app.post(
    '/workspaces',
    {
      config: { auth: 'account' },
      schema: {
        operationId: 'admin.createWorkspace',
        tags: ['workspaces'],
        security: BEARER,
        body: CreateWorkspaceBody,
        response: responses(201, Workspace),
      },
    },
    async (req, reply) => reply.status(201).send(await identity.createWorkspace(req.principal, req.body)),
  );

  app.get(
    '/workspaces/:id',
    {
      schema: {
        operationId: 'admin.getWorkspace',
        tags: ['workspaces'],
        security: BEARER,
        params: IdParam,
        response: responses(200, Workspace),
      },
    },
    async (req) => identity.getWorkspace(req.actor, req.params.id),
  );

  app.put(
    '/workspaces/:id',
    {
      schema: {
        operationId: 'admin.updateWorkspace',
        tags: ['workspaces'],
        security: BEARER,
        params: IdParam,
        body: UpdateWorkspaceBody,
        response: responses(200, Workspace),
      },
    },
    async (req) => identity.updateWorkspace(req.actor, req.params.id, req.body),
  );

  app.delete(
    '/workspaces/:id',
    {
      schema: {
        operationId: 'admin.deleteWorkspace',
        tags: ['workspaces'],
        security: BEARER,
        params: IdParam,
        response: responses(200, Empty),
      },
    },
    async (req) => {
      await identity.deleteWorkspace(req.actor, req.params.id);
      return {};
    },
  );

  app.get(
    '/workspaces/:id/usages',
    {
      schema: {
        operationId: 'admin.listWorkspaceUsages',
        tags: ['workspaces'],
        security: BEARER,
        params: IdParam,
        response: responses(200, Type.Object({ usages: Type.Array(Usage) })),
      },
    },
    async (req) => ({ usages: await identity.usages(req.actor, req.params.id) }),
  );
}
