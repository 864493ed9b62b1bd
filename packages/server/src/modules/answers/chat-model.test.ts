import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ChatServer, startChatServer } from '../../../../testkit/src/server/openai-chat-server.js';
import { ChatModelError, chatModelFromConfig, openAiChatModel } from './chat-model.js';

describe('openAiChatModel against a local OpenAI-compatible server', () => {
  let server: ChatServer;
  beforeAll(async () => {
    server = await startChatServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  const messages = [
    { role: 'system' as const, content: 'Be brief.' },
    { role: 'user' as const, content: 'Hello?' },
  ];

  it('posts the model, the messages and the API key to {url}/chat/completions and answers the content', async () => {
    server.behave({ kind: 'answer', pieces: ['Hi ', 'there.'] });
    const model = openAiChatModel({ url: `${server.url}/`, model: 'tiny-llm', apiKey: 'sk-local' });
    expect(await model.complete(messages)).toBe('Hi there.');
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request?.headers.authorization).toBe('Bearer sk-local');
    expect(request?.body).toMatchObject({ model: 'tiny-llm', messages });
    expect(request?.body.stream).toBeUndefined();
  });

  it('streams with stream: true, calling onDelta with each piece in order', async () => {
    server.behave({ kind: 'answer', pieces: ['Refunds ', 'take ', '30 days', ' [1].'] });
    const model = openAiChatModel({ url: server.url, model: 'tiny-llm' });
    const deltas: string[] = [];
    const text = await model.complete(messages, { onDelta: (t) => deltas.push(t) });
    expect(deltas).toEqual(['Refunds ', 'take ', '30 days', ' [1].']);
    expect(text).toBe('Refunds take 30 days [1].');
    expect(server.requests[0]?.body.stream).toBe(true);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('fails with the status and the service message on an error answer', async () => {
    server.behave({ kind: 'status', status: 500, message: 'model overloaded' });
    const model = openAiChatModel({ url: server.url, model: 'tiny-llm' });
    const error = await model.complete(messages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error).toMatchObject({ code: 'http_error', status: 500 });
    expect((error as Error).message).toBe(
      `chat model ${server.url}/chat/completions answered 500: model overloaded`,
    );
  });

  it('fails with a timeout error when the service does not answer in time', async () => {
    server.behave({ kind: 'hang' });
    const model = openAiChatModel({ url: server.url, model: 'tiny-llm', timeoutMs: 150 });
    const error = await model.complete(messages).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'timeout', message: expect.stringContaining('within 150 ms') });
  });

  it('stops reading an answer that never ends, whole or streamed, and fails bad_response', async () => {
    server.behave({ kind: 'flood' });
    const model = openAiChatModel({ url: server.url, model: 'tiny-llm', timeoutMs: 30_000 });
    const whole = await model.complete(messages).catch((e: unknown) => e);
    expect(whole).toBeInstanceOf(ChatModelError);
    expect(whole).toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining('answered too much'),
    });
    const streamed = await model.complete(messages, { onDelta: () => undefined }).catch((e: unknown) => e);
    expect(streamed).toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining('streamed more than'),
    });
    // Each connection was closed after a few megabytes: nothing near the endless answer was read. (Without the
    // cap the reading would go on until the 30 s timeout, failing 'timeout' or the test's own time, not this.)
    await expect.poll(() => server.floods.length).toBe(2);
    for (const bytes of server.floods) expect(bytes).toBeLessThan(64 * 1024 * 1024);
  });

  it('fails with a network error when nothing listens', async () => {
    const model = openAiChatModel({ url: 'http://127.0.0.1:9/v1', model: 'tiny-llm', timeoutMs: 2000 });
    await expect(model.complete(messages)).rejects.toMatchObject({ code: 'network_error' });
  });

  it('is built from the config only when a URL and a model are set', () => {
    expect(chatModelFromConfig({ url: undefined, model: undefined, apiKey: undefined, timeoutMs: 1 })).toBe(
      undefined,
    );
    expect(
      chatModelFromConfig({ url: server.url, model: 'tiny-llm', apiKey: undefined, timeoutMs: 1000 })?.model,
    ).toBe('tiny-llm');
  });
});
