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
    return this.core.list(OPS.listBots, input, options, 'bots');
  }

  /** Creates a bot (`POST /v1/admin/bots`). */
  async createBot(input: CreateBotInput = {}, options?: RequestOptions): Promise<BotResponse> {
    return this.core.send(OPS.createBot, input, options);
  }

  /** Gets a bot with every field. */
  async getBot(input: IdInput, options?: RequestOptions): Promise<BotResponse> {
    return this.core.send(OPS.getBot, input, options);
  }

  /** Changes a bot's fields; a `null` tag value removes that tag. */
  async updateBot(input: UpdateBotInput, options?: RequestOptions): Promise<BotResponse> {
    return this.core.send(OPS.updateBot, input, options);
  }

  /** Deletes a bot. */
  async deleteBot(input: IdInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.deleteBot, input, options);
  }

  /** Lists a bot's access keys (never their values). */
  async listBotAccessKeys(input: IdInput, options?: RequestOptions): Promise<ListKeysResponse> {
    return this.core.send(OPS.listBotAccessKeys, input, options);
  }

  /** Creates a bot access key (`bak_…`); `key.value` is shown only in this answer. */
  async createBotAccessKey(
    input: CreateBotAccessKeyInput,
    options?: RequestOptions,
  ): Promise<CreateKeyResponse> {
    return this.core.send(OPS.createBotAccessKey, input, options);
  }

  /** Revokes a bot access key. */
  async revokeBotAccessKey(input: RevokeBotAccessKeyInput, options?: RequestOptions): Promise<EmptyResponse> {
    return this.core.send(OPS.revokeBotAccessKey, input, options);
  }

  /** Gets a bot's dashboard webchat configuration. */
  async getBotWebchat(input: IdInput, options?: RequestOptions): Promise<BotWebchat> {
    return this.core.send(OPS.getBotWebchat, input, options);
  }

  /** Replaces a bot's dashboard webchat configuration (every field is checked; bad ones are named). */
  async updateBotWebchat(input: UpdateBotWebchatInput, options?: RequestOptions): Promise<BotWebchat> {
    return this.core.send(OPS.updateBotWebchat, input, options);
  }

  /** The bot's Chat API secrets: the user key secret (verified identity) and the webhook secret. */
  async getBotChat(input: IdInput, options?: RequestOptions): Promise<BotChatSecretsResponse> {
    return this.core.send(OPS.getBotChat, input, options);
  }

  /** Replaces both chat secrets of a bot: every user key signed with the old one stops working. */
  async rotateBotChatSecrets(input: IdInput, options?: RequestOptions): Promise<BotChatSecretsResponse> {
    return this.core.send(OPS.rotateBotChatSecrets, input, options);
  }

  /** A bot's request log, newest first: await for a page, `for await` for every line. */
  getBotLogs(input: GetBotLogsInput, options?: RequestOptions): PagePromise<GetBotLogsResponse, LogEntry> {
    return this.core.list(OPS.getBotLogs, input, options, 'logs');
  }

  /** A bot's usage figures: its File Storage bytes (`storage_count`) against the per-bot quota. */
  async listBotUsages(input: IdInput, options?: RequestOptions): Promise<ListBotUsagesResponse> {
    return this.core.send(OPS.listBotUsages, input, options);
  }
}
