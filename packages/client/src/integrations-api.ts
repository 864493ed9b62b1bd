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
import { Api, type PagePromise, type RequestOptions } from './core.js';
import { INTEGRATION_OPERATIONS as OPS } from './operations.js';

/** Integrations of a workspace (`/v1/admin/integrations`), installed on bots with keys of their own. */
export class IntegrationsApi extends Api {
  /** Lists the workspace's integrations. */
  listIntegrations(
    input: PageInput = {},
    options?: RequestOptions,
  ): PagePromise<ListIntegrationsResponse, Integration> {
    return this.core.list(OPS.listIntegrations, input, options, 'integrations');
  }

  /** Creates an integration. */
  async createIntegration(
    input: CreateIntegrationInput,
    options?: RequestOptions,
  ): Promise<IntegrationResponse> {
    return this.core.send(OPS.createIntegration, input, options);
  }

  /** Gets an integration. */
  async getIntegration(input: IdInput, options?: RequestOptions): Promise<IntegrationResponse> {
    return this.core.send(OPS.getIntegration, input, options);
  }

  /** Deletes an integration. */
  async deleteIntegration(input: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.deleteIntegration, input, options);
  }

  /** Lists the integrations installed on a bot. */
  async listBotIntegrations(input: IdInput, options?: RequestOptions): Promise<ListBotIntegrationsResponse> {
    return this.core.send(OPS.listBotIntegrations, input, options);
  }

  /** Installs an integration on bot `id`. */
  async installIntegration(
    input: BotIntegrationInput,
    options?: RequestOptions,
  ): Promise<InstallIntegrationResponse> {
    return this.core.send(OPS.installIntegration, input, options);
  }

  /** Uninstalls an integration from bot `id`, revoking its keys there. */
  async uninstallIntegration(input: BotIntegrationInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.uninstallIntegration, input, options);
  }

  /** Lists the keys of an integration installed on bot `id` (never their values). */
  async listIntegrationKeys(input: BotIntegrationInput, options?: RequestOptions): Promise<ListKeysResponse> {
    return this.core.send(OPS.listIntegrationKeys, input, options);
  }

  /** Creates a key (`iak_…`) for an integration installed on bot `id`; `key.value` is shown only here. */
  async createIntegrationKey(
    input: CreateIntegrationKeyInput,
    options?: RequestOptions,
  ): Promise<CreateKeyResponse> {
    return this.core.send(OPS.createIntegrationKey, input, options);
  }

  /** Revokes a key of an integration installed on bot `id`. */
  async revokeIntegrationKey(
    input: RevokeIntegrationKeyInput,
    options?: RequestOptions,
  ): Promise<EmptyResponse> {
    return this.core.send(OPS.revokeIntegrationKey, input, options);
  }
}
