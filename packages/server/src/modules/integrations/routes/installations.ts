import { Empty, Installation } from '@parley/protocol';
import { INTEGRATION_OPERATIONS } from '@parley/protocol/operations';
import Type from 'typebox';
import type { Declare } from '../../../http/operation.js';
import { empty, listOf } from '../../../http/route-helpers.js';
import type { IntegrationsService } from '../contract.js';
import { IdParam, InstallationParams } from './common.js';

/** Integrations installed on a bot: listed, installed (idempotently) and uninstalled. */
export function installationRoutes(op: Declare, integrations: IntegrationsService): void {
  op(
    INTEGRATION_OPERATIONS.listBotIntegrations,
    {
      params: IdParam,
      response: listOf('integrations', Installation),
    },
    async (req) => ({ integrations: await integrations.listInstalled(req.actor, req.params.id) }),
  );

  op(
    INTEGRATION_OPERATIONS.installIntegration,
    {
      params: InstallationParams,
      response: Type.Object({ installation: Installation }),
    },
    async (req) => ({
      installation: await integrations.install(req.actor, req.params.id, req.params.integrationId),
    }),
  );

  op(
    INTEGRATION_OPERATIONS.uninstallIntegration,
    {
      params: InstallationParams,
      response: Empty,
    },
    async (req) => empty(integrations.uninstall(req.actor, req.params.id, req.params.integrationId)),
  );
}
