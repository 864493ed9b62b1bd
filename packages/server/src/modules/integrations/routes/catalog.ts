import { CreateIntegrationBody, Empty, Integration, PageQuery } from '@parley/protocol';
import { INTEGRATION_OPERATIONS } from '@parley/protocol/operations';
import Type from 'typebox';
import type { Declare } from '../../../http/operation.js';
import { empty, pageBody, pageOf } from '../../../http/route-helpers.js';
import type { IntegrationsService } from '../contract.js';
import { IdParam } from './common.js';

const IntegrationAnswer = Type.Object({ integration: Integration });

/** The integrations of the caller's workspace: listed, created, read and deleted. */
export function integrationCatalogRoutes(op: Declare, integrations: IntegrationsService): void {
  op(
    INTEGRATION_OPERATIONS.listIntegrations,
    {
      query: Type.Object(PageQuery),
      response: pageOf('integrations', Integration),
    },
    async (req) => pageBody('integrations', await integrations.list(req.actor, req.query)),
  );

  op(
    INTEGRATION_OPERATIONS.createIntegration,
    {
      body: CreateIntegrationBody,
      status: 201,
      response: IntegrationAnswer,
    },
    async (req) => ({ integration: await integrations.create(req.actor, req.body) }),
  );

  op(
    INTEGRATION_OPERATIONS.getIntegration,
    { params: IdParam, response: IntegrationAnswer },
    async (req) => ({ integration: await integrations.get(req.actor, req.params.id) }),
  );

  op(INTEGRATION_OPERATIONS.deleteIntegration, { params: IdParam, response: Empty }, async (req) =>
    empty(integrations.delete(req.actor, req.params.id)),
  );
}
