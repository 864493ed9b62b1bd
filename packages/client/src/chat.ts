import { ChatApiClient } from './chat-api-client.js';
import type { ChatFileResult, UploadChatFileInput } from './chat-types.js';
import type { RequestOptions } from './core.js';
import { prepareSource, sendUpload } from './transfer.js';

export { ChatApiClient } from './chat-api-client.js';
export type { ListenOptions } from './event-stream.js';
export { signUserKey } from './user-key.js';

/**
 * The Chat API of one bot (`/v1/chat/{botId}`), as a chat user (`userKey`) or as the bot (`token`: a bot
 * access key). One method per operation; lists answer a `PagePromise`; `listen` is the live stream;
 * `uploadFile` sends a chat file's bytes.
 * @example
 * const anon = new ChatClient({ botId, apiUrl });
 * const { key } = await anon.createUser({ name: 'Ana' });
 * const chat = anon.with({ userKey: key });
 * const { conversation } = await chat.createConversation();
 * await chat.createMessage({ conversationId: conversation.id, payload: { type: 'text', text: 'Hi!' } });
 * for await (const s of chat.listen(conversation.id)) if (s.type === 'message_created') console.log(s.data);
 */
export class ChatClient extends ChatApiClient {
  /**
   * Uploads a chat file from `content`, `path` (Node) or `stream` (with `size`), with progress, and answers
   * it with its permanent `url` to send in a message.
   */
  async uploadFile(input: UploadChatFileInput, options: RequestOptions = {}): Promise<ChatFileResult> {
    const source = await prepareSource(input);
    const contentType = input.contentType ?? source.contentType;
    const { name, conversationId } = input;
    const created = await this.createFile(
      { name, conversationId, size: source.size, ...(contentType ? { contentType } : {}) },
      options,
    );
    await sendUpload(this.core.http, created.file.uploadUrl, source, input.onProgress, options);
    return created;
  }
}
