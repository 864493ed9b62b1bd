import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AcceptInvitationBody,
  Account,
  AddMemberBody,
  CreatedToken,
  CreateTokenBody,
  CreateWorkspaceBody,
  Empty,
  Invitation,
  ListMeta,
  Member,
  PageQuery,
  TokenInfo,
  UpdateAccountBody,
  UpdateMemberBody,
  UpdateWorkspaceBody,
  Usage,
  Workspace,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { BEARER, pageBody, responses } from '../../http/route-helpers.js';
import type { IdentityService } from './service.js';

const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
const Page = Type.Object(PageQuery);

/** Account, personal access tokens, invitations, workspaces, members and usage. */
export function identityRoutes(fastify: FastifyInstance, deps: { identity: IdentityService }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { identity } = deps;

  app.get(
    '/account/me',
    {
      config: { auth: 'account' },
      schema: {
        operationId: 'admin.getAccount',
        tags: ['account'],
        security: BEARER,
        response: responses(200, Type.Object({ account: Account })),
      },
    },
    async (req) => ({
      account: await identity.getAccount(req.principal),
    }),
  );

  app.put(
    '/account/me',
    {
      config: { auth: 'account' },
      schema: {
        operationId: 'admin.updateAccount',
        tags: ['account'],
        security: BEARER,
        body: UpdateAccountBody,
        response: responses(200, Type.Object({ account: Account })),
      },
    },
    async (req) => ({
      account: await identity.updateAccount(req.principal, req.body),
    }),
  );

  app.get(
    '/account/pats',
    {
      config: { auth: 'account' },
      schema: {
        operationId: 'admin.listPersonalAccessTokens',
        tags: ['account'],
        security: BEARER,
        response: responses(200, Type.Object({ pats: Type.Array(TokenInfo) })),
      },
    },
    async (req) => ({
      pats: await identity.listPats(req.principal),
    }),
  );

  app.post(
    '/account/pats',
    {
      config: { auth: 'account' },
      schema: {
        operationId: 'admin.createPersonalAccessToken',
        tags: ['account'],
        security: BEARER,
        body: CreateTokenBody,
        response: responses(201, Type.Object({ pat: CreatedToken })),
      },
    },
    async (req, reply) => {
      const pat = await identity.createPat(req.principal, req.body);
      return reply.status(201).send({ pat });
    },
  );

  app.delete(
    '/account/pats/:id',
    {
      config: { auth: 'account' },
      schema: {
        operationId: 'admin.deletePersonalAccessToken',
        tags: ['account'],
        security: BEARER,
        params: IdParam,
        response: responses(200, Empty),
      },
    },
    async (req) => {
      await identity.deletePat(req.principal, req.params.id);
      return {};
    },
  );

  app.post(
    '/account/invitations/accept',
    {
      config: { auth: 'optional' },
      schema: {
        operationId: 'admin.acceptInvitation',
        tags: ['account'],
        description:
          'Redeems a one-time invitation code. Without a token it creates the account of the invited e-mail and answers its first personal access token (`pat`). When an account already holds that e-mail, only that account may accept: send its token, and the answer has no `pat`; 409 without one, 403 for another account.',
        body: AcceptInvitationBody,
        response: responses(
          201,
          Type.Object({ account: Account, pat: Type.Optional(CreatedToken), workspaceId: Type.String() }),
        ),
      },
    },
    async (req, reply) => {
      // A token is optional here (auth 'optional'): with one, the caller accepts as the account it signs in.
      const caller = req.parley.principal;
      const result = await identity.acceptInvitation(req.body, caller);
      return reply.status(201).send({
        account: result.account,
        ...(result.token ? { pat: result.token } : {}),
        workspaceId: result.workspaceId,
      });
    },
  );

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
