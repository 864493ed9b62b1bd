import type { Integration } from '@parley/protocol';
import { INTEGRATION_OPERATIONS } from '@parley/protocol/operations';
import type {
  BotIntegrationInput,
  CreateIntegrationInput,
  CreateIntegrationKeyInput,
  CreateKeyResponse,
  EmptyResponse,
  IdInput,
  InstallIntegrationResponse,
  IntegrationResponse,
  ListBotIntegrationsResponse,
  ListIntegrationsResponse,
  ListKeysResponse,
  PageInput,
  RevokeIntegrationKeyInput,
} from './admin-types.js';
import { apiClass, type Lists, type Sends } from './api-class.js';

/** Integrations of a workspace (`/v1/admin/integrations`), installed on bots with keys of their own. */
export type IntegrationsApi = {
  /** Lists the workspace's integrations. */
  listIntegrations: Lists<PageInput | undefined, ListIntegrationsResponse, Integration>;
  /** Creates an integration. */
  createIntegration: Sends<CreateIntegrationInput, IntegrationResponse>;
  /** Gets an integration. */
  getIntegration: Sends<IdInput, IntegrationResponse>;
  /** Deletes an integration. */
  deleteIntegration: Sends<IdInput, EmptyResponse>;
  /** Lists the integrations installed on a bot. */
  listBotIntegrations: Sends<IdInput, ListBotIntegrationsResponse>;
  /** Installs an integration on bot `id`. */
  installIntegration: Sends<BotIntegrationInput, InstallIntegrationResponse>;
  /** Uninstalls an integration from bot `id`, revoking its keys there. */
  uninstallIntegration: Sends<BotIntegrationInput, EmptyResponse>;
  /** Lists the keys of an integration installed on bot `id` (never their values). */
  listIntegrationKeys: Sends<BotIntegrationInput, ListKeysResponse>;
  /** Creates a key (`iak_…`) for an integration installed on bot `id`; `key.value` is shown only here. */
  createIntegrationKey: Sends<CreateIntegrationKeyInput, CreateKeyResponse>;
  /** Revokes a key of an integration installed on bot `id`. */
  revokeIntegrationKey: Sends<RevokeIntegrationKeyInput, EmptyResponse>;
};

/** Sends each method of `IntegrationsApi` as its entry of `INTEGRATION_OPERATIONS`. */
export const IntegrationsApi = apiClass(INTEGRATION_OPERATIONS).implementing<IntegrationsApi>({
  listIntegrations: 'integrations',
});
