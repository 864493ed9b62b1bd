import Type, { type Static } from 'typebox';
import { Timestamp } from './common.js';

/* Admin API shapes of API tokens. */

/** A token as listed: never its value. */
export const TokenInfo = Type.Object({
  id: Type.String(),
  note: Type.String(),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()]),
  expiresAt: Type.Union([Timestamp, Type.Null()]),
});
/** Token info type. */
export type TokenInfo = Static<typeof TokenInfo>;

/** A token just created: the only time its `value` is shown. */
export const CreatedToken = Type.Object({
  ...TokenInfo.properties,
  value: Type.String({ description: 'The secret; shown once' }),
});
/** Created token type. */
export type CreatedToken = Static<typeof CreatedToken>;

/** Body of the token-creating operations. */
export const CreateTokenBody = Type.Object({
  note: Type.Optional(Type.String({ maxLength: 200 })),
  expiresAt: Type.Optional(Timestamp),
});
