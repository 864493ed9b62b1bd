import type { BotSummary, ListBotsResponse as ListBotsPage, LogEntry } from '@parley/protocol';
import type {
  BotChatSecretsResponse,
  BotResponse,
  BotWebchat,
  CreateBotAccessKeyInput,
  CreateBotInput,
  CreateKeyResponse,
  EmptyResponse,
  GetBotLogsInput,
  GetBotLogsResponse,
  IdInput,
  ListBotsInput,
  ListBotUsagesResponse,
  ListKeysResponse,
  RevokeBotAccessKeyInput,
  UpdateBotInput,
  UpdateBotWebchatInput,
} from './admin-types.js';
import { Api, type PagePromise, type RequestOptions } from './core.js';
import { BOT_OPERATIONS as OPS } from './operations.js';

/** The bots of a workspace (`/v1/admin/bots`): bots, their access keys, webchat, chat secrets, logs, usage. */
export class BotsApi extends Api {
  /** Lists the workspace's bots (`GET /v1/admin/bots`): await for a page, `for await` for every bot. */
  listBots(input: ListBotsInput = {}, options?: RequestOptions): PagePromise<ListBotsPage, BotSummary> {
    return this.core.page(OPS.listBots, options, { query: input }, 'bots');
  }

  /** Creates a bot (`POST /v1/admin/bots`). */
  async createBot(input: CreateBotInput = {}, options?: RequestOptions): Promise<BotResponse> {
    return this.core.call(OPS.createBot, options, { body: input });
  }

  /** Gets a bot with every field. */
  async getBot({ id }: IdInput, options?: RequestOptions): Promise<BotResponse> {
    return this.core.call(OPS.getBot, options, { params: { id } });
  }

  /** Changes a bot's fields; a `null` tag value removes that tag. */
  async updateBot({ id, ...body }: UpdateBotInput, options?: RequestOptions): Promise<BotResponse> {
    return this.core.call(OPS.updateBot, options, { params: { id }, body });
  }

  /** Deletes a bot. */
  async deleteBot({ id }: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.call(OPS.deleteBot, options, { params: { id } });
  }

  /** Lists a bot's access keys (never their values). */
  async listBotAccessKeys({ id }: IdInput, options?: RequestOptions): Promise<ListKeysResponse> {
    return this.core.call(OPS.listBotAccessKeys, options, { params: { id } });
  }

  /** Creates a bot access key (`bak_…`); `key.value` is shown only in this answer. */
  async createBotAccessKey(
    { id, ...body }: CreateBotAccessKeyInput,
    options?: RequestOptions,
  ): Promise<CreateKeyResponse> {
    return this.core.call(OPS.createBotAccessKey, options, { params: { id }, body });
  }

  /** Revokes a bot access key. */
  async revokeBotAccessKey(
    { id, keyId }: RevokeBotAccessKeyInput,
    options?: RequestOptions,
  ): Promise<EmptyResponse> {
    return this.core.call(OPS.revokeBotAccessKey, options, { params: { id, keyId } });
  }

  /** Gets a bot's dashboard webchat configuration. */
  async getBotWebchat({ id }: IdInput, options?: RequestOptions): Promise<BotWebchat> {
    return this.core.call(OPS.getBotWebchat, options, { params: { id } });
  }

  /** Replaces a bot's dashboard webchat configuration (every field is checked; bad ones are named). */
  async updateBotWebchat(
    { id, configuration }: UpdateBotWebchatInput,
    options?: RequestOptions,
  ): Promise<BotWebchat> {
    return this.core.call(OPS.updateBotWebchat, options, { params: { id }, body: { configuration } });
  }

  /** The bot's Chat API secrets: the user key secret (verified identity) and the webhook secret. */
  async getBotChat({ id }: IdInput, options?: RequestOptions): Promise<BotChatSecretsResponse> {
    return this.core.call(OPS.getBotChat, options, { params: { id } });
  }

  /** Replaces both chat secrets of a bot: every user key signed with the old one stops working. */
  async rotateBotChatSecrets({ id }: IdInput, options?: RequestOptions): Promise<BotChatSecretsResponse> {
    return this.core.call(OPS.rotateBotChatSecrets, options, { params: { id } });
  }

  /** A bot's request log, newest first: await for a page, `for await` for every line. */
  getBotLogs(
    { id, ...query }: GetBotLogsInput,
    options?: RequestOptions,
  ): PagePromise<GetBotLogsResponse, LogEntry> {
    return this.core.page(OPS.getBotLogs, options, { params: { id }, query }, 'logs');
  }

  /** A bot's usage figures: its File Storage bytes (`storage_count`) against the per-bot quota. */
  async listBotUsages({ id }: IdInput, options?: RequestOptions): Promise<ListBotUsagesResponse> {
    return this.core.call(OPS.listBotUsages, options, { params: { id } });
  }
}
