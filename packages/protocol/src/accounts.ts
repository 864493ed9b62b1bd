import Type, { type Static } from 'typebox';
import { Timestamp } from './common.js';

/* Admin API shapes of accounts (people): their settings, invitations accepted, passwords and sessions. */

/** An account (a person). */
export const Account = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    displayName: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Account' },
);
/** Account type. */
export type Account = Static<typeof Account>;

/** Body of updateAccount. */
export const UpdateAccountBody = Type.Object({ displayName: Type.String({ minLength: 1, maxLength: 200 }) });

/** A password as the service accepts one: 12 to 256 characters. */
export const Password = Type.String({ minLength: 12, maxLength: 256 });

/** Body of acceptInvitation. */
export const AcceptInvitationBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 200 }),
  displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  password: Type.Optional(
    Type.String({
      minLength: 12,
      maxLength: 256,
      description: "the new account's password, for signing in (an invitation that creates an account)",
    }),
  ),
});

// ---- sign-in (passwords and sessions) ----

/** Body of signIn. */
export const SignInBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

/** Body of changePassword: `current` may be left out only by an account that has no password yet. */
export const ChangePasswordBody = Type.Object({
  current: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  new: Password,
});

/** A signed-in session as listed: never its secret. */
export const Session = Type.Object(
  {
    id: Type.String(),
    createdAt: Timestamp,
    lastSeenAt: Timestamp,
    /** When it ends unless used before: the earlier of the idle and the absolute limit. */
    expiresAt: Timestamp,
    userAgent: Type.String(),
    address: Type.String(),
    current: Type.Boolean({ description: 'the session this request is authenticated by' }),
  },
  { $id: 'Session' },
);
/** Session type. */
export type Session = Static<typeof Session>;
