import { INTEGRATION_OPERATIONS } from '@parley/protocol/operations';
import { type ApiOf, apiClass } from './api-class.js';

/** Integrations of a workspace (`/v1/admin/integrations`), installed on bots with keys of their own. */
export type IntegrationsApi = ApiOf<typeof INTEGRATION_OPERATIONS>;

/** Sends each method of `IntegrationsApi` as its entry of `INTEGRATION_OPERATIONS`. */
export const IntegrationsApi = apiClass(INTEGRATION_OPERATIONS);
