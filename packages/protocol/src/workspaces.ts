import Type, { type Static } from 'typebox';
import { Timestamp } from './common.js';

/* Admin API shapes of workspaces, their usage, members' roles and members. */

/** Roles of a workspace member, from least to most powerful (billing stands apart). */
export const ROLES = ['viewer', 'billing', 'developer', 'manager', 'administrator', 'owner'] as const;
/** A workspace member's role. */
export const Role = Type.Union([
  Type.Literal('viewer'),
  Type.Literal('billing'),
  Type.Literal('developer'),
  Type.Literal('manager'),
  Type.Literal('administrator'),
  Type.Literal('owner'),
]);
/** Role type. */
export type Role = (typeof ROLES)[number];

/** A workspace. */
export const Workspace = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    ownerId: Type.String(),
    about: Type.String(),
    contactEmail: Type.String(),
    website: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    botCount: Type.Integer(),
    role: Type.Optional(Role),
  },
  { $id: 'Workspace' },
);
/** Workspace type. */
export type Workspace = Static<typeof Workspace>;

/** Body of createWorkspace. */
export const CreateWorkspaceBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
/** Body of updateWorkspace (its settings). */
export const UpdateWorkspaceBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  about: Type.Optional(Type.String({ maxLength: 2000 })),
  contactEmail: Type.Optional(
    Type.Union([Type.Literal(''), Type.String({ format: 'email', maxLength: 320 })]),
  ),
  website: Type.Optional(Type.Union([Type.Literal(''), Type.String({ format: 'uri', maxLength: 2048 })])),
});

/** One usage figure of a workspace. */
export const Usage = Type.Object({
  id: Type.String({ description: 'Workspace id' }),
  period: Type.String({ description: 'YYYY-MM' }),
  type: Type.String(),
  value: Type.Number(),
  quota: Type.Union([Type.Number(), Type.Null()], { description: 'null when unlimited' }),
});
/** Usage type. */
export type Usage = Static<typeof Usage>;

/** A workspace member (or a pending invitation when `userId` is absent). */
export const Member = Type.Object(
  {
    id: Type.String(),
    userId: Type.Optional(Type.String()),
    email: Type.String(),
    displayName: Type.Optional(Type.String()),
    role: Role,
    createdAt: Timestamp,
    status: Type.Union([Type.Literal('active'), Type.Literal('invited')]),
    invitationExpiresAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: "a pending member's: when their invitation link stops working (renew it for a new one)",
      }),
    ),
  },
  { $id: 'Member' },
);
/** Member type. */
export type Member = Static<typeof Member>;

/** A one-time invitation handed out when a member is added by an e-mail with no account yet. */
export const Invitation = Type.Object({ code: Type.String(), expiresAt: Timestamp });

/** Body of addMember. */
export const AddMemberBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320 }),
  role: Role,
});
/** Body of updateMember. */
export const UpdateMemberBody = Type.Object({ role: Role });
