import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { createTestApp, type TestApp } from './harness.js';

/** A chat user as tests hold it. */
export interface TestChatUser {
  id: string;
  key: string;
}

/** Chat API helpers over a test app (in-process requests). */
export function chatClient(t: TestApp, botId: string = t.botId) {
  const base = `/v1/chat/${botId}`;
  async function call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options: { key?: string; body?: unknown; headers?: Record<string, string>; bot?: boolean } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== undefined) headers['x-user-key'] = options.key;
    if (options.bot) headers.authorization = `Bearer ${t.botKey}`;
    return t.app.inject({
      method,
      url: `${base}${path}`,
      headers,
      ...(options.body !== undefined ? { payload: options.body as Record<string, unknown> } : {}),
    });
  }
  return {
    base,
    call,
    async user(fields: Record<string, unknown> = {}): Promise<TestChatUser> {
      const res = await call('POST', '/users', { body: fields });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json() as { user: { id: string }; key: string };
      return { id: body.user.id, key: body.key };
    },
    async conversation(user: TestChatUser, id?: string): Promise<string> {
      const res = await call('POST', '/conversations', { key: user.key, body: id ? { id } : {} });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { conversation: { id: string } }).conversation.id;
    },
    /** Posts a text message of `user` (with `metadata` when given); expects 201 and answers the message. */
    async message(
      user: TestChatUser,
      conversationId: string,
      text: string,
      metadata?: Record<string, unknown>,
    ) {
      const res = await call('POST', '/messages', {
        key: user.key,
        body: { conversationId, payload: { type: 'text', text }, ...(metadata ? { metadata } : {}) },
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { message: { id: string; createdAt: string } }).message;
    },
  };
}

/** What a test seeding conversations on given days writes with (`withChatAt`). */
export interface ChatSeeding {
  t: TestApp;
  /** The Chat API, as visitors call it. */
  api: ReturnType<typeof chatClient>;
  /** The chat service, for the bot's and people's replies. */
  chat: TestApp['app']['services']['chat'];
  bot: Awaited<ReturnType<TestApp['app']['services']['chat']['bot']>>;
  /** The app's clock: it reads `clock.now` (milliseconds since the epoch), which the test sets. */
  clock: { now: number };
}

/**
 * A test app (on `databaseUrl` when given) whose clock starts at `start` and moves only as the test sets it,
 * handed to `use` with the Chat API client, the chat service and its bot; closed after.
 */
export async function withChatAt(
  start: string,
  databaseUrl: string | undefined,
  use: (seeding: ChatSeeding) => Promise<void>,
): Promise<void> {
  const clock = { now: Date.parse(start) };
  const t = await createTestApp({
    clock: () => new Date(clock.now),
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  try {
    const chat = t.app.services.chat;
    await use({ t, api: chatClient(t), chat, bot: await chat.bot(t.botId), clock });
  } finally {
    await t.close();
  }
}

/**
 * Posts `question` as `user`, then the bot's text `reply` to it through the chat service, as its responder
 * would (`beforeReply` runs in between: a test clock moved on); answers the reply's id.
 */
export async function askAndReply(
  { api, chat, bot }: Pick<ChatSeeding, 'api' | 'chat' | 'bot'>,
  user: TestChatUser,
  conversationId: string,
  question: string,
  reply: string,
  beforeReply?: () => void,
): Promise<string> {
  const message = await api.message(user, conversationId, question);
  beforeReply?.();
  const [answer] = await chat.postAsBot(bot, conversationId, [{ payload: { type: 'text', text: reply } }], {
    replyTo: message.id,
  });
  return answer?.id ?? '';
}

/** A message as the Chat API lists it, with what the knowledge answers put in it. */
export interface ListedMessage {
  id: string;
  isBot: boolean;
  payload: {
    type: string;
    markdown?: string;
    text?: string;
    options?: Array<{ label: string; value: string }>;
  };
  metadata?: {
    sources?: Array<{ fileId: string; key: string }>;
    answer?: { mode: string; choices?: Array<{ label: string; value: string; key: string }> };
  };
}

/**
 * Posts a payload (with `metadata`, as the webchat sends its page and language) in a conversation as a chat user
 * and answers the bot's reply to it, once the chat reply job
 * has posted it (polled every 25 ms, within `withinMs`).
 */
export async function botReplyTo(
  chat: ReturnType<typeof chatClient>,
  user: TestChatUser,
  conversation: string,
  payload: Record<string, unknown>,
  withinMs = 20_000,
  metadata?: Record<string, unknown>,
): Promise<ListedMessage> {
  const posted = await chat.call('POST', '/messages', {
    key: user.key,
    body: { conversationId: conversation, payload, ...(metadata ? { metadata } : {}) },
  });
  expect(posted.statusCode, posted.body).toBe(201);
  const id = (posted.json() as { message: { id: string } }).message.id;
  const until = Date.now() + withinMs;
  for (;;) {
    const res = await chat.call('GET', `/conversations/${conversation}/messages`, { key: user.key });
    const messages = (res.json() as { messages: ListedMessage[] }).messages;
    // Newest first: the bot's reply is the newest message once it is there.
    const mine = messages.findIndex((m) => m.id === id);
    const reply =
      mine > 0
        ? messages
            .slice(0, mine)
            .reverse()
            .find((m) => m.isBot)
        : undefined;
    if (reply) return reply;
    if (Date.now() > until) throw new Error(`no reply to ${JSON.stringify(payload)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A parsed SSE frame. */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: { type: string; data: Record<string, unknown> };
}

/**
 * Opens a live stream over real HTTP and collects its frames; `until` waits for a frame matching a test.
 */
export async function openSse(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const frames: SseFrame[] = [];
  const waiters: Array<{ test: (f: SseFrame[]) => boolean; resolve: () => void }> = [];
  let ended = false;
  const check = () => {
    for (const w of [...waiters]) {
      if (w.test(frames)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  const done = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let index = buffer.indexOf('\n\n');
        while (index >= 0) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          const frame: SseFrame = {};
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) frame.id = line.slice(4);
            else if (line.startsWith('event: ')) frame.event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) frame.data = JSON.parse(data) as NonNullable<SseFrame['data']>;
          if (frame.event || frame.data) frames.push(frame);
          index = buffer.indexOf('\n\n');
        }
        check();
      }
    } catch {
      // aborted
    } finally {
      ended = true;
      check();
    }
  })();
  return {
    res,
    frames,
    get ended() {
      return ended;
    },
    /** Signals (not pings) received so far. */
    signals: () => frames.filter((f) => f.data && f.data.type !== 'ping'),
    until(test: (frames: SseFrame[]) => boolean, timeoutMs = 5000): Promise<void> {
      if (test(frames)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for frames; got ${JSON.stringify(frames)}`)),
          timeoutMs,
        );
        waiters.push({
          test,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async close() {
      controller.abort();
      await done;
    },
    done,
  };
}

/** A live stream opened by `openSse`. */
export type LiveStream = Awaited<ReturnType<typeof openSse>>;

/**
 * Has the test app listen over real HTTP and answers where the live streams of its chat conversations
 * are: `url(conversationId, query?)`, and `listen(conversationId, headers, query?)` to open one.
 */
export async function liveStreams(t: TestApp, botId: string = t.botId) {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = (conversationId: string, query = '') =>
    `${address}/v1/chat/${botId}/conversations/${conversationId}/listen${query}`;
  return {
    url,
    listen: (conversationId: string, headers: Record<string, string>, query = '') =>
      openSse(url(conversationId, query), headers),
  };
}

/**
 * A new chat user of the test app in a new conversation of theirs, over real HTTP: `listen(headers?)`
 * opens the user's live stream of it (more headers added to the user's key).
 */
export async function liveConversation(t: TestApp) {
  const chat = chatClient(t);
  const streams = await liveStreams(t);
  const user = await chat.user();
  const conv = await chat.conversation(user);
  return {
    chat,
    user,
    conv,
    listen: (headers: Record<string, string> = {}) =>
      streams.listen(conv, { 'x-user-key': user.key, ...headers }),
  };
}
