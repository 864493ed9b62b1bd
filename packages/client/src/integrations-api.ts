import type { Integration } from '@parley/protocol';
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
import { apiClass } from './api-class.js';
import type { PagePromise, RequestOptions } from './core.js';
import { INTEGRATION_OPERATIONS } from './operations.js';

/** Integrations of a workspace (`/v1/admin/integrations`), installed on bots with keys of their own. */
export interface IntegrationsApi {
  /** Lists the workspace's integrations. */
  listIntegrations(
    input?: PageInput,
    options?: RequestOptions,
  ): PagePromise<ListIntegrationsResponse, Integration>;
  /** Creates an integration. */
  createIntegration(input: CreateIntegrationInput, options?: RequestOptions): Promise<IntegrationResponse>;
  /** Gets an integration. */
  getIntegration(input: IdInput, options?: RequestOptions): Promise<IntegrationResponse>;
  /** Deletes an integration. */
  deleteIntegration(input: IdInput, options?: RequestOptions): Promise<EmptyResponse>;
  /** Lists the integrations installed on a bot. */
  listBotIntegrations(input: IdInput, options?: RequestOptions): Promise<ListBotIntegrationsResponse>;
  /** Installs an integration on bot `id`. */
  installIntegration(
    input: BotIntegrationInput,
    options?: RequestOptions,
  ): Promise<InstallIntegrationResponse>;
  /** Uninstalls an integration from bot `id`, revoking its keys there. */
  uninstallIntegration(input: BotIntegrationInput, options?: RequestOptions): Promise<EmptyResponse>;
  /** Lists the keys of an integration installed on bot `id` (never their values). */
  listIntegrationKeys(input: BotIntegrationInput, options?: RequestOptions): Promise<ListKeysResponse>;
  /** Creates a key (`iak_…`) for an integration installed on bot `id`; `key.value` is shown only here. */
  createIntegrationKey(
    input: CreateIntegrationKeyInput,
    options?: RequestOptions,
  ): Promise<CreateKeyResponse>;
  /** Revokes a key of an integration installed on bot `id`. */
  revokeIntegrationKey(input: RevokeIntegrationKeyInput, options?: RequestOptions): Promise<EmptyResponse>;
}

/** Sends each method of `IntegrationsApi` as its entry of `INTEGRATION_OPERATIONS`. */
export const IntegrationsApi = apiClass(INTEGRATION_OPERATIONS).implementing<IntegrationsApi>({
  listIntegrations: 'integrations',
});
