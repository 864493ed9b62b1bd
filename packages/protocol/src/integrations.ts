import Type, { type Static } from 'typebox';
import { Timestamp } from './common.js';

/* Admin API shapes of integrations and their installations on bots. */

/** An integration of a workspace. */
export const Integration = Type.Object(
  {
    id: Type.String(),
    workspaceId: Type.String(),
    name: Type.String(),
    description: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: Type.String(),
  },
  { $id: 'Integration' },
);
/** Integration type. */
export type Integration = Static<typeof Integration>;

/** Body of createIntegration. */
export const CreateIntegrationBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '^[a-z0-9][a-z0-9-_.]*$' }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
});

/** An integration installed on a bot. */
export const Installation = Type.Object({
  integrationId: Type.String(),
  botId: Type.String(),
  name: Type.String(),
  installedAt: Timestamp,
});
