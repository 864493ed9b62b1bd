import { describe, expect, it } from 'vitest';
import { chatClient } from '../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../testkit/src/server/fixtures.js';
import { expectError } from '../../../testkit/src/server/wire.js';

describe('JSON bodies are validated strictly; query strings are coerced', () => {
  const t = useTestApp();

  it('answers 400 naming the field for a number where a string belongs, and creates nothing', async () => {
    const before = await t.asOwner('GET', '/v1/admin/bots');
    const count = (before.json() as { bots: unknown[] }).bots.length;
    const res = await t.asOwner('POST', '/v1/admin/bots', { name: 42 });
    const body = expectError(res, 400, 'InvalidPayload');
    expect(JSON.stringify(body)).toContain('name');
    const after = await t.asOwner('GET', '/v1/admin/bots');
    expect((after.json() as { bots: unknown[] }).bots).toHaveLength(count);
  });

  it('refuses a number where a string belongs in an update or a message', async () => {
    expectError(
      await t.asOwner('PUT', `/v1/admin/bots/${t.botId}`, { name: 'ok', description: 5 }),
      400,
      'InvalidPayload',
    );
    const chat = chatClient(t);
    const user = await chat.user();
    const conv = await chat.conversation(user);
    const res = await chat.call('POST', '/messages', {
      key: user.key,
      body: { conversationId: conv, payload: { type: 'text', text: 123 } },
    });
    expect(res.statusCode).toBe(400);
  });

  it('still reads numbers from query strings', async () => {
    const res = await t.asOwner('GET', '/v1/admin/bots?pageSize=1');
    expect(res.statusCode).toBe(200);
    expect((res.json() as { bots: unknown[] }).bots.length).toBeLessThanOrEqual(1);
    expectError(await t.asOwner('GET', '/v1/admin/bots?pageSize=lots'), 400, 'InvalidQuery');
  });
});
