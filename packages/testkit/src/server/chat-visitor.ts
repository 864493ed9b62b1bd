import { chatClient, type TestChatUser } from './chat.js';
import { useFixture } from './fixtures.js';
import type { TestApp } from './harness.js';

/** A Chat API client of a test app's bot, as `chatClient` makes it. */
export type TestChatClient = ReturnType<typeof chatClient>;

/**
 * A Chat API client of the bootstrap bot and one visitor of it, for the tests of the enclosing `describe`: made
 * in `beforeAll`, once the app of an earlier `useTestApp` is there (read them inside tests and hooks only).
 * @example const t = useTestApp({ workers: true }); const { chat, user } = useChatVisitor(t);
 */
export function useChatVisitor(t: TestApp): { chat: TestChatClient; user: TestChatUser } {
  const chat = useFixture(
    'the chat client',
    async () => chatClient(t),
    () => undefined,
  );
  const user = useFixture(
    'the chat visitor',
    () => chat.user(),
    () => undefined,
  );
  return { chat, user };
}
