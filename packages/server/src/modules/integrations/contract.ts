import type { Integration } from '@parley/protocol';
import type { Actor } from '../../access/principal.js';
import type { Page } from '../../http/pagination.js';
import type { PageRequest } from '../../http/route-helpers.js';
import type { HolderKeys } from '../identity/service.js';

/** An integration installed on a bot. */
export interface InstallationView {
  integrationId: string;
  botId: string;
  name: string;
  installedAt: string;
}

/** The integrations of the actor's workspace. */
export interface IntegrationCatalog {
  list(actor: Actor, query: PageRequest): Promise<Page<Integration>>;
  /** Creates an integration; 409 when the workspace has one of that name. */
  create(actor: Actor, body: { name: string; description?: string | undefined }): Promise<Integration>;
  get(actor: Actor, id: string): Promise<Integration>;
  delete(actor: Actor, id: string): Promise<void>;
}

/** Integrations installed on bots. */
export interface IntegrationInstallations {
  listInstalled(actor: Actor, botId: string): Promise<InstallationView[]>;
  /** Installs an integration on a bot; installing again answers the installation that exists. */
  install(actor: Actor, botId: string, integrationId: string): Promise<InstallationView>;
  /** Uninstalls an integration from a bot and revokes every key it had there. */
  uninstall(actor: Actor, botId: string, integrationId: string): Promise<void>;
}

/** The keys of an integration installed on a bot. */
export interface IntegrationKeys extends HolderKeys<[botId: string, integrationId: string]> {}

/** Integrations of a workspace, their installation on bots and their keys. */
export interface IntegrationsService extends IntegrationCatalog, IntegrationInstallations, IntegrationKeys {}
