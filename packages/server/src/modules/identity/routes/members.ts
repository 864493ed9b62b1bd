import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AddMemberBody, Empty, Invitation, ListMeta, Member, UpdateMemberBody } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, pageBody, responses } from '../../../http/route-helpers.js';
import type { IdentityService } from '../contract.js';
import { IdParam, Page } from './params.js';

/** Members of the caller's workspace and their roles. */
export function memberRoutes(fastify: FastifyInstance, deps: { identity: IdentityService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { identity } = deps;

  app.get(
    '/workspace-members',
    {
      schema: {
        operationId: 'admin.listWorkspaceMembers',
        tags: ['members'],
        security: BEARER,
        querystring: Page,
        response: responses(200, Type.Object({ members: Type.Array(Member), meta: ListMeta })),
      },
    },
    async (req) => pageBody('members', await identity.listMembers(req.actor, req.query)),
  );

  app.get(
    '/workspace-members/me',
    {
      schema: {
        operationId: 'admin.getWorkspaceMember',
        tags: ['members'],
        security: BEARER,
        response: responses(200, Member),
      },
    },
    async (req) => identity.getMe(req.actor),
  );

  app.get(
    '/workspace-members/:id',
    {
      schema: {
        operationId: 'admin.getWorkspaceMemberById',
        tags: ['members'],
        security: BEARER,
        params: IdParam,
        response: responses(200, Member),
      },
    },
    async (req) => identity.getMember(req.actor, req.params.id),
  );

  app.post(
    '/workspace-members',
    {
      schema: {
        operationId: 'admin.createWorkspaceMember',
        tags: ['members'],
        security: BEARER,
        description:
          'Adds a member by e-mail. When the e-mail has no account yet, the answer carries a one-time `invitation` code.',
        body: AddMemberBody,
        response: responses(
          201,
          Type.Object({ ...Member.properties, invitation: Type.Optional(Invitation) }),
        ),
      },
    },
    async (req, reply) => reply.status(201).send(await identity.addMember(req.actor, req.body)),
  );

  app.put(
    '/workspace-members/:id',
    {
      schema: {
        operationId: 'admin.updateWorkspaceMember',
        tags: ['members'],
        security: BEARER,
        params: IdParam,
        body: UpdateMemberBody,
        response: responses(200, Member),
      },
    },
    async (req) => identity.updateMember(req.actor, req.params.id, req.body),
  );

  app.delete(
    '/workspace-members/:id',
    {
      schema: {
        operationId: 'admin.deleteWorkspaceMember',
        tags: ['members'],
        security: BEARER,
        params: IdParam,
        response: responses(200, Empty),
      },
    },
    async (req) => {
      await identity.removeMember(req.actor, req.params.id);
      return {};
    },
  );
}
