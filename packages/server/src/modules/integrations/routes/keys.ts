import { CreatedToken, CreateTokenBody, Empty, TokenInfo } from '@parley/protocol';
import { INTEGRATION_OPERATIONS } from '@parley/protocol/operations';
import Type from 'typebox';
import type { Declare } from '../../../http/operation.js';
import { empty, listOf } from '../../../http/route-helpers.js';
import type { IntegrationsService } from '../contract.js';
import { InstallationParams, KeyParams } from './common.js';

/** The keys of an integration on a bot: listed, created (the value shown once) and revoked. */
export function integrationKeyRoutes(op: Declare, integrations: IntegrationsService): void {
  op(
    INTEGRATION_OPERATIONS.listIntegrationKeys,
    {
      params: InstallationParams,
      response: listOf('keys', TokenInfo),
    },
    async (req) => ({
      keys: await integrations.listKeys(req.actor, req.params.id, req.params.integrationId),
    }),
  );

  op(
    INTEGRATION_OPERATIONS.createIntegrationKey,
    {
      params: InstallationParams,
      body: CreateTokenBody,
      status: 201,
      response: Type.Object({ key: CreatedToken }),
    },
    async (req) => {
      const { id, integrationId } = req.params;
      return { key: await integrations.createKey(req.actor, id, integrationId, req.body ?? {}) };
    },
  );

  op(
    INTEGRATION_OPERATIONS.revokeIntegrationKey,
    {
      params: KeyParams,
      response: Empty,
    },
    async (req) =>
      empty(integrations.revokeKey(req.actor, req.params.id, req.params.integrationId, req.params.keyId)),
  );
}
