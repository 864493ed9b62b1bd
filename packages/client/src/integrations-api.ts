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
    return this.core.page(OPS.listIntegrations, options, { query: input }, 'integrations');
  }

  /** Creates an integration. */
  async createIntegration(
    input: CreateIntegrationInput,
    options?: RequestOptions,
  ): Promise<IntegrationResponse> {
    return this.core.call(OPS.createIntegration, options, { body: input });
  }

  /** Gets an integration. */
  async getIntegration({ id }: IdInput, options?: RequestOptions): Promise<IntegrationResponse> {
    return this.core.call(OPS.getIntegration, options, { params: { id } });
  }

  /** Deletes an integration. */
  async deleteIntegration({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.call(OPS.deleteIntegration, options, { params: { id } });
  }

  /** Lists the integrations installed on a bot. */
  async listBotIntegrations({ id }: IdInput, options?: RequestOptions): Promise<ListBotIntegrationsResponse> {
    return this.core.call(OPS.listBotIntegrations, options, { params: { id } });
  }

  /** Installs an integration on bot `id`. */
  async installIntegration(
    { id, integrationId }: BotIntegrationInput,
    options?: RequestOptions,
  ): Promise<InstallIntegrationResponse> {
    return this.core.call(OPS.installIntegration, options, { params: { id, integrationId } });
  }

  /** Uninstalls an integration from bot `id`, revoking its keys there. */
  async uninstallIntegration(
    { id, integrationId }: BotIntegrationInput,
    options?: RequestOptions,
  ): Promise<EmptyResponse> {
    return this.core.call(OPS.uninstallIntegration, options, { params: { id, integrationId } });
  }

  /** Lists the keys of an integration installed on bot `id` (never their values). */
  async listIntegrationKeys(
    { id, integrationId }: BotIntegrationInput,
    options?: RequestOptions,
  ): Promise<ListKeysResponse> {
    return this.core.call(OPS.listIntegrationKeys, options, { params: { id, integrationId } });
  }

  /** Creates a key (`iak_…`) for an integration installed on bot `id`; `key.value` is shown only here. */
  async createIntegrationKey(
    { id, integrationId, ...body }: CreateIntegrationKeyInput,
    options?: RequestOptions,
  ): Promise<CreateKeyResponse> {
    return this.core.call(OPS.createIntegrationKey, options, { params: { id, integrationId }, body });
  }

  /** Revokes a key of an integration installed on bot `id`. */
  async revokeIntegrationKey(
    { id, integrationId, keyId }: RevokeIntegrationKeyInput,
    options?: RequestOptions,
  ): Promise<EmptyResponse> {
    return this.core.call(OPS.revokeIntegrationKey, options, { params: { id, integrationId, keyId } });
  }
}
