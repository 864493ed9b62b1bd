import type { Bot, BotSummary, CreateBotBody, UpdateBotBody, WebchatConfiguration } from '@parley/protocol';
import type { Kysely } from 'kysely';
import type { Actor } from '../../access/principal.js';
import type { Database } from '../../db/schema.js';
import type { Page } from '../../http/pagination.js';
import type { PageRequest } from '../../http/route-helpers.js';
import type { TagFilter } from '../../http/tag-filter.js';
import type { AuditWho } from '../audit/service.js';
import type { HolderKeys } from '../identity/service.js';
import type { BOT_SORT_COLUMNS } from './repo.js';

/** Query of listBots after parsing. */
export interface ListBotsInput extends PageRequest {
  dev?: boolean | undefined;
  name?: string | undefined;
  tags?: TagFilter | undefined;
  sortField?: keyof typeof BOT_SORT_COLUMNS | undefined;
  sortDirection?: 'asc' | 'desc' | undefined;
}

/**
 * What the Chat API and the webchat need of a bot: status, reply mode, webhook URL, source links, webchat
 * configuration.
 */
export interface BotChatFacts {
  id: string;
  workspaceId: string;
  name: string;
  status: Bot['status'];
  replyMode: Bot['replyMode'];
  webhookUrl: string | null;
  /** Which sources of its answers the bot links (read at answer time and when a source link is opened). */
  sourceLinks: Bot['sourceLinks'];
  /** The bot's own reply texts (read at answer time; a text left out is the default). */
  replies: Bot['replies'];
  /** The bot's human handoff settings (wait, opening hours, not-found offer, handoff webhook). */
  handoff: Bot['handoff'];
  webchat: WebchatConfiguration;
}

/** What other modules read of a bot without a permission check (they authenticate their callers themselves). */
export interface BotDirectory {
  /** A bot by id in any workspace, for resolving `x-bot-id` (callers check access themselves). */
  findAnyWorkspace(id: string): Promise<{ id: string; workspaceId: string } | undefined>;
  /** A bot's chat facts, in any workspace. */
  chatFacts(id: string): Promise<BotChatFacts | undefined>;
  /** True when the bot exists in the workspace (e.g. to attribute request logs). */
  exists(workspaceId: string, id: string): Promise<boolean>;
}

/** New bots of a workspace. */
export interface BotCreation {
  /** Creates a bot (the creator's workspace, knowledge replies by default). */
  create(actor: Actor, body: CreateBotBody): Promise<Bot>;
  /** Creates a bot inside the caller's transaction (quota, tags and audit included): the bootstrap path. */
  createInTx(
    tx: Kysely<Database>,
    workspaceId: string,
    createdBy: string,
    body: CreateBotBody,
    who: AuditWho,
  ): Promise<Bot>;
}

/** The bots of the actor's workspace: listed, read, updated and deleted, each change audited. */
export interface BotManagement {
  list(actor: Actor, query: ListBotsInput): Promise<Page<BotSummary>>;
  /** A bot of the actor's workspace (404 for another's). */
  get(actor: Actor, id: string): Promise<Bot>;
  update(actor: Actor, id: string, body: UpdateBotBody): Promise<Bot>;
  /** Deletes a bot with its files, logs and keys; live chat streams of it end. */
  delete(actor: Actor, id: string): Promise<void>;
}

/** A bot's access keys. */
export interface BotKeys extends HolderKeys<[id: string]> {
  /** Revokes a key; live chat streams opened with it end. */
  revokeKey(actor: Actor, id: string, keyId: string): Promise<void>;
}

/** A bot's dashboard webchat configuration. */
export interface BotWebchat {
  /**
   * The dashboard webchat configuration. Its `adminKey` opens every conversation of the bot, so it is a
   * chat secret: only callers who may reveal chat secrets (developer and above) receive it.
   */
  getWebchat(actor: Actor, id: string): Promise<WebchatConfiguration>;
  /** Replaces the configuration after validating every field against the spec's table. */
  putWebchat(actor: Actor, id: string, configuration: unknown): Promise<WebchatConfiguration>;
}

/** Bots, their access keys and their webchat (dashboard) configuration. */
export interface BotsService extends BotDirectory, BotCreation, BotManagement, BotKeys, BotWebchat {}
