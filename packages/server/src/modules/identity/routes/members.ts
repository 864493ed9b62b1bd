import { AddMemberBody, Empty, Invitation, Member, UpdateMemberBody } from '@parley/protocol';
import { WORKSPACE_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, operations } from '../../../http/operation.js';
import { empty, pageBody, pageOf } from '../../../http/route-helpers.js';
import type { IdentityService } from '../contract.js';
import { IdParam, Page } from './params.js';

/** Members of the caller's workspace and their roles. */
export function memberRoutes(app: FastifyInstance, { identity }: { identity: IdentityService }) {
  const op = operations(app, { tags: ['members'], security: ADMIN_SECURITY });

  op(
    WORKSPACE_OPERATIONS.listWorkspaceMembers,
    {
      query: Page,
      response: pageOf('members', Member),
    },
    async (req) => pageBody('members', await identity.listMembers(req.actor, req.query)),
  );

  op(WORKSPACE_OPERATIONS.getWorkspaceMember, { response: Member }, async (req) => identity.getMe(req.actor));

  op(WORKSPACE_OPERATIONS.getWorkspaceMemberById, { params: IdParam, response: Member }, async (req) =>
    identity.getMember(req.actor, req.params.id),
  );

  op(
    WORKSPACE_OPERATIONS.addWorkspaceMember,
    {
      description:
        'Adds a member by e-mail. When the e-mail has no account yet, the answer carries a one-time `invitation` code.',
      body: AddMemberBody,
      status: 201,
      response: Type.Object({ ...Member.properties, invitation: Type.Optional(Invitation) }),
    },
    async (req) => identity.addMember(req.actor, req.body),
  );

  op(
    WORKSPACE_OPERATIONS.updateWorkspaceMember,
    { params: IdParam, body: UpdateMemberBody, response: Member },
    async (req) => identity.updateMember(req.actor, req.params.id, req.body),
  );

  op(
    WORKSPACE_OPERATIONS.renewWorkspaceInvitation,
    {
      description:
        "A new invitation code for a member who has not joined yet, valid 7 days; the member's earlier codes stop working (only a hash of a code is stored: a code is never shown twice). 409 once the member joined.",
      params: IdParam,
      status: 201,
      response: Invitation,
    },
    async (req) => identity.renewInvitation(req.actor, req.params.id),
  );

  op(WORKSPACE_OPERATIONS.removeWorkspaceMember, { params: IdParam, response: Empty }, async (req) =>
    empty(identity.removeMember(req.actor, req.params.id)),
  );
}
