import type { ChatSignal, CreateChatFileBody } from '@parley/protocol';
import type { ConnectionOptions } from './core.js';
import type { UploadProgress, UploadSource } from './transfer.js';

// The chat client's own types; the inputs and answers of the Chat API's operations are
// `@parley/protocol/operations`' (exported from here too, for `@parley/client/chat`).
export type * from '@parley/protocol/operations/io/chat';

/** Input of uploadFile: the chat file's name, conversation and type, its bytes, and progress. */
export type UploadChatFileInput = Omit<CreateChatFileBody, 'size'> &
  UploadSource & { onProgress?: ((progress: UploadProgress) => void) | undefined };

/** A signal of a live stream, with the id of its frame (`eventId`, the cursor to resume after). */
export type ChatStreamSignal = ChatSignal & { eventId: string | undefined };

/** Options of a chat client; besides these, the connection options of `Client` (apiUrl, timeout, retry, …). */
export interface ChatClientOptions extends ConnectionOptions {
  /** The bot whose Chat API this is (`/v1/chat/{botId}`). Env `PARLEY_BOT_ID`. */
  botId?: string | undefined;
  /**
   * The chat user's key, sent as `x-user-key`: the `key` createUser answered, or a key your backend signed
   * (`signUserKey`) for verified identity.
   */
  userKey?: string | undefined;
  /** A bot access key (`bak_…`), sent as `Authorization: Bearer`: the bot itself acting in its chats. */
  token?: string | undefined;
  /** The webchat adminKey, sent as `x-admin-key` (enhanced permissions). */
  adminKey?: string | undefined;
}
