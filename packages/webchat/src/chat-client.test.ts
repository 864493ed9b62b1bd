import { ConnectionError, PayloadTooLargeError, ResourceNotFoundError } from '@parley/client/chat';
import type { ChatSignal } from '@parley/protocol';
import { CHAT_OPERATIONS, fillPath } from '@parley/protocol/operations';
import { describe, expect, it } from 'vitest';
import { chatClient } from './chat-client.js';
import type { ListenHandlers } from './live-stream.js';

/** A fetch answering the listen requests in turn with `answers` (the last one repeats), recording them. */
function scriptedFetch(answers: Array<() => Response | Promise<Response>>) {
  const requests: Headers[] = [];
  const fetch = async (_input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Headers(init?.headers));
    const answer = answers[Math.min(requests.length - 1, answers.length - 1)];
    return (answer as () => Response)();
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

/** A live stream answer: `frames` then, unless `hold`, the end of the stream. */
function stream(frames: string, hold = false): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(frames));
      if (!hold) controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

function recorder() {
  const signals: ChatSignal[] = [];
  const opens: boolean[] = [];
  const errors: Array<{ error: unknown; fatal: boolean }> = [];
  const handlers: ListenHandlers = {
    onSignal: (signal) => signals.push(signal),
    onOpen: (again) => opens.push(again),
    onError: (error, fatal) => errors.push({ error, fatal }),
  };
  return { signals, opens, errors, handlers };
}

const client = (fetch: typeof globalThis.fetch) =>
  chatClient({ apiUrl: 'http://chat.test', botId: 'bot_1', adminKey: () => undefined, fetch });

const typing = (id: number) => `id: ${id}\ndata: {"type":"typing_started","data":{"userId":"bot"}}\n\n`;

describe("the webchat's live stream", () => {
  it('resolves once open, passes signals on, and resumes after the last frame with Last-Event-ID', async () => {
    const { fetch, requests } = scriptedFetch([
      () => stream(`retry: 10\n\n${typing(1)}data: not json\n\n${typing(2)}`),
      () => stream(typing(3), true),
    ]);
    const got = recorder();
    const abort = new AbortController();
    await client(fetch).listen('conv_1', got.handlers, abort.signal);
    await expect.poll(() => got.signals.length).toBe(3);
    abort.abort();
    expect(got.opens).toEqual([false, true]);
    expect(requests.map((h) => h.get('last-event-id'))).toEqual([null, '2']);
    expect(got.errors).toEqual([]);
  });

  it('rejects when the server refuses before the stream opens, and reports a refusal after as fatal', async () => {
    const body = { id: 'err_1', code: 404, type: 'ResourceNotFound', message: 'Conversation not found' };
    const refusal = () => Response.json(body, { status: 404 });
    const before = scriptedFetch([refusal]);
    const error = await client(before.fetch)
      .listen('conv_1', recorder().handlers, new AbortController().signal)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect(error).toMatchObject({ status: 404, message: 'Conversation not found' });

    const after = scriptedFetch([() => stream('retry: 10\n\n'), refusal]);
    const got = recorder();
    await client(after.fetch).listen('conv_1', got.handlers, new AbortController().signal);
    await expect.poll(() => got.errors.length).toBe(1);
    expect(got.errors[0]?.fatal).toBe(true);
    expect(got.errors[0]?.error).toBeInstanceOf(ResourceNotFoundError);
  });

  it('rejects after three failed tries to open, with the last failure', { timeout: 15_000 }, async () => {
    const down = scriptedFetch([() => Promise.reject(new TypeError('network down'))]);
    const abort = new AbortController();
    const error = await client(down.fetch)
      .listen('conv_1', recorder().handlers, abort.signal)
      .catch((e: unknown) => e);
    abort.abort();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({
      message: 'GET http://chat.test/v1/chat/bot_1/conversations/conv_1/listen failed: network down',
    });
    expect(down.requests).toHaveLength(3);
  });
});

describe("the webchat's Chat API requests", () => {
  it('sends each call as its entry of @parley/protocol/operations, the path filled and encoded', async () => {
    const sent: string[] = [];
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return Response.json({
        user: {},
        conversation: {},
        message: {},
        file: { uploadUrl: 'http://up.test/x' },
      });
    }) as typeof globalThis.fetch;
    const chat = client(fetch);
    await chat.createUser({});
    await chat.getMe();
    await chat.updateMe({ name: 'A' });
    await chat.createConversation();
    await chat.getConversation('c/1');
    await chat.listMessages('c/1', 'next token');
    await chat.createMessage('c/1', { type: 'text', text: 'hi' } as never);
    await chat.createEvent('c/1', {});
    await chat.feedback('m 1', 'positive');
    await chat.uploadFile('c/1', new Blob(['x']));
    const at = (op: { method: string; path: string }, params: Record<string, string> = {}, query = '') =>
      `${op.method} http://chat.test${fillPath(op.path, { botId: 'bot_1', ...params })}${query}`;
    expect(sent).toEqual([
      at(CHAT_OPERATIONS.createUser),
      at(CHAT_OPERATIONS.getUser),
      at(CHAT_OPERATIONS.updateUser),
      at(CHAT_OPERATIONS.createConversation),
      at(CHAT_OPERATIONS.getConversation, { id: 'c/1' }),
      at(CHAT_OPERATIONS.listMessages, { id: 'c/1' }, '?nextToken=next+token'),
      at(CHAT_OPERATIONS.createMessage),
      at(CHAT_OPERATIONS.createEvent),
      at(CHAT_OPERATIONS.setMessageFeedback, { id: 'm 1' }),
      at(CHAT_OPERATIONS.createFile),
      'PUT http://up.test/x',
    ]);
    expect(sent[4]).toBe('GET http://chat.test/v1/chat/bot_1/conversations/c%2F1');
  });

  it("fails an upload the storage refuses with the client's error of its answer, its status kept", async () => {
    const tooLarge = { id: 'err_2', code: 413, type: 'PayloadTooLarge', message: 'The file is too large' };
    const answers = [Response.json(tooLarge, { status: 413 }), new Response('<html>', { status: 413 })];
    const fetch = (async (input: RequestInfo | URL) =>
      String(input) === 'http://up.test/x'
        ? (answers.shift() as Response)
        : Response.json({ file: { uploadUrl: 'http://up.test/x' } })) as typeof globalThis.fetch;
    const upload = () =>
      client(fetch)
        .uploadFile('c_1', new Blob(['x']))
        .catch((e: unknown) => e);
    const wire = await upload();
    expect(wire).toBeInstanceOf(PayloadTooLargeError);
    expect(wire).toMatchObject({ status: 413, message: 'The file is too large' });
    expect(await upload()).toMatchObject({ status: 413, type: 'Unknown' });
  });

  it('refuses a call whose path parameter is empty, before sending anything', async () => {
    const sent: string[] = [];
    const fetch = (async (input: RequestInfo | URL) => {
      sent.push(String(input));
      return Response.json({});
    }) as typeof globalThis.fetch;
    await expect(client(fetch).getConversation('')).rejects.toThrow(
      'Path parameter id of /v1/chat/{botId}/conversations/{id} must be a non-empty string',
    );
    expect(sent).toEqual([]);
  });
});
