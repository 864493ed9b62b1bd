// Prototype pollution through user-named keys (issue #31, finding 3): `?tags.__proto__=x` once set
// Object.prototype.anyOf, after which chat users, messages, file upserts, the webchat configuration and sign-in
// answered 500 (with Fastify's internal FST_ERR text) until a restart. Every key a caller names — tag filters
// on each surface, tags, metadata and configuration fields in bodies at any depth — refuses `__proto__`,
// `constructor` and `prototype` with a 400 naming it, changes nothing, and leaves the process serving.
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { chatClient } from '../../../testkit/src/server/chat.js';
import { api } from '../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../testkit/src/server/fixtures.js';
import { type TestApp, testDatabases } from '../../../testkit/src/server/harness.js';
import { badFields, expectError } from '../../../testkit/src/server/wire.js';

const databases = testDatabases();

/** Own properties of Object.prototype beyond the standard ones: what a pollution added. */
const STANDARD = new Set(Object.getOwnPropertyNames(Object.prototype));
const added = () => Object.getOwnPropertyNames(Object.prototype).filter((name) => !STANDARD.has(name));

/** A JSON request with its body as raw text (a `"__proto__"` key survives only there). */
const rawJson = (
  t: TestApp,
  method: 'POST' | 'PUT',
  url: string,
  text: string,
  headers: Record<string, string>,
): Promise<LightMyRequestResponse> =>
  t.app.inject({ method, url, headers: { 'content-type': 'application/json', ...headers }, payload: text });

describe.each(databases)('prototype keys ($name)', ({ url }) => {
  const t = useTestApp(url ? { databaseUrl: url } : {});
  const owner = () => ({ authorization: `Bearer ${t.owner.token}`, 'x-workspace-id': t.workspaceId });
  const bot = () => ({ authorization: `Bearer ${t.botKey}`, 'x-bot-id': t.botId });

  /** What every user of the process relies on still works: chat users, messages, file upserts, webchat, sign-in. */
  async function stillServes(): Promise<void> {
    expect(added()).toEqual([]);
    expect(({} as Record<string, unknown>).anyOf).toBeUndefined();
    const chat = chatClient(t);
    const user = await chat.user({ name: 'After' });
    await chat.message(user, await chat.conversation(user), 'hello');
    const file = await api(t, 'PUT', '/v1/files', { key: `after-${Math.random()}.txt`, size: 1 });
    expect(file.statusCode, file.body).toBe(200);
    const webchat = await t.app.inject({ method: 'GET', url: `/webchat/v1/bots/${t.botId}/config` });
    expect(webchat.statusCode, webchat.body).toBe(200);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/account/sessions',
      payload: { email: t.owner.email, password: t.owner.password },
    });
    expect(signIn.statusCode, signIn.body).toBe(201);
  }

  it("refuses a viewer's ?tags.__proto__=x on the bots list with 400 naming it, and the process serves on", async () => {
    const viewer = await t.addMember('viewer');
    for (const query of ['tags.__proto__=x', 'tags[__proto__]=x', 'tags.constructor.exists=true']) {
      const res = await t.callWith(viewer.token, 'GET', `/v1/admin/bots?${query}`);
      const body = expectError(res, 400, 'InvalidQuery');
      expect(badFields(body)).toEqual([decodeURIComponent(query.split('=')[0] as string)]);
    }
    await stillServes();
  });

  it("refuses a bot key's ?tags[__proto__]=x on the files list and the file search, and the process serves on", async () => {
    for (const path of ['/v1/files', '/v1/files/search?query=a&']) {
      const sep = path.endsWith('&') ? '' : '?';
      for (const query of [
        'tags[__proto__]=x',
        'tags.__proto__.not=x',
        `tags=${encodeURIComponent('{"prototype":"x"}')}`,
      ]) {
        const res = await api(t, 'GET', `${path}${sep}${query}`);
        expectError(res, 400, 'InvalidQuery');
      }
    }
    await stillServes();
  });

  it('refuses a webchat configuration with a constructor field with 400 naming it, keeping the stored one', async () => {
    const webchat = `/v1/admin/bots/${t.botId}/webchat`;
    expect((await t.asOwner('PUT', webchat, { configuration: { botName: 'Kept' } })).statusCode).toBe(200);
    for (const text of [
      '{"configuration":{"constructor":{"prototype":{"x":1}}}}',
      '{"configuration":{"constructor":{"x":1}}}',
      '{"configuration":{"__proto__":{"x":1}}}',
      '{"configuration":{"botName":"x","prototype":1}}',
    ]) {
      const res = await rawJson(t, 'PUT', webchat, text, owner());
      const body = expectError(res, 400, 'InvalidPayload');
      expect(badFields(body)[0]).toMatch(/^configuration\.(constructor|__proto__|prototype)$/);
    }
    expect((await t.asOwner('GET', webchat)).json()).toEqual({ configuration: { botName: 'Kept' } });
    await stillServes();
  });

  it('refuses __proto__, constructor and prototype in file metadata and tags, at any depth, storing nothing', async () => {
    const cases: Array<[string, string]> = [
      ['{"key":"m1.txt","size":1,"metadata":{"__proto__":{"x":1}}}', 'metadata.__proto__'],
      [
        '{"key":"m2.txt","size":1,"metadata":{"a":[{"constructor":{"prototype":{"x":1}}}]}}',
        'metadata.a.0.constructor',
      ],
      ['{"key":"m3.txt","size":1,"tags":{"__proto__":"x"}}', 'tags.__proto__'],
      ['{"key":"m4.txt","size":1,"tags":{"prototype":"x"}}', 'tags.prototype'],
      // An escaped key is the same key once parsed.
      ['{"key":"m5.txt","size":1,"metadata":{"\\u005f_proto__":{"x":1}}}', 'metadata.__proto__'],
    ];
    for (const [text, field] of cases) {
      const res = await rawJson(t, 'PUT', '/v1/files', text, bot());
      const body = expectError(res, 400, 'InvalidPayload');
      expect(badFields(body)).toEqual([field]);
      expect(body.message).toContain(field);
    }
    const listed = await api(t, 'GET', '/v1/files?keyContains=m');
    expect((listed.json() as { files: Array<{ key: string }> }).files.map((f) => f.key)).not.toContain(
      'm1.txt',
    );
    const stored = await api(t, 'PUT', '/v1/files', { key: 'kept.txt', size: 1, metadata: { a: 1 } });
    const id = (stored.json() as { file: { id: string } }).file.id;
    const update = await rawJson(t, 'PUT', `/v1/files/${id}`, '{"metadata":{"constructor":null}}', bot());
    expect(badFields(expectError(update, 400, 'InvalidPayload'))).toEqual(['metadata.constructor']);
    const after = await api(t, 'GET', `/v1/files/${id}`);
    expect((after.json() as { file: { metadata: unknown } }).file.metadata).toEqual({ a: 1 });
    await stillServes();
  });

  it('refuses them in bot tags and in chat metadata and payloads, creating nothing', async () => {
    const bots = await t.asOwner('GET', '/v1/admin/bots');
    const before = (bots.json() as { bots: unknown[] }).bots.length;
    const created = await rawJson(
      t,
      'POST',
      '/v1/admin/bots',
      '{"name":"P","tags":{"__proto__":"x"}}',
      owner(),
    );
    expect(badFields(expectError(created, 400, 'InvalidPayload'))).toEqual(['tags.__proto__']);
    expect(((await t.asOwner('GET', '/v1/admin/bots')).json() as { bots: unknown[] }).bots).toHaveLength(
      before,
    );

    const chat = chatClient(t);
    const user = await chat.user();
    const conversationId = await chat.conversation(user);
    const message = await rawJson(
      t,
      'POST',
      `${chat.base}/messages`,
      `{"conversationId":"${conversationId}","payload":{"type":"text","text":"hi"},"metadata":{"constructor":{"prototype":{"x":1}}}}`,
      { 'x-user-key': user.key },
    );
    expect(badFields(expectError(message, 400, 'InvalidPayload'))).toEqual(['metadata.constructor']);
    const listedMessages = await chat.call('GET', `/conversations/${conversationId}/messages`, {
      key: user.key,
    });
    expect((listedMessages.json() as { messages: unknown[] }).messages).toEqual([]);
    await stillServes();
  });

  it('keeps tags named like inherited members (toString, hasOwnProperty) as ordinary tags', async () => {
    const file = await api(t, 'PUT', '/v1/files', {
      key: 'inherited-names.txt',
      size: 1,
      tags: { toString: 'a', hasOwnProperty: 'b' },
    });
    expect(file.statusCode, file.body).toBe(200);
    const listed = await api(t, 'GET', '/v1/files?tags.toString=a&tags[hasOwnProperty]=b');
    expect(listed.statusCode, listed.body).toBe(200);
    const files = (listed.json() as { files: Array<{ key: string; tags: unknown }> }).files;
    expect(files.map((f) => [f.key, f.tags])).toEqual([
      ['inherited-names.txt', { hasOwnProperty: 'b', toString: 'a' }],
    ]);
  });

  it("answers errors in the wire format, never Fastify's FST_ERR text, even with Object.prototype polluted", async () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.anyOf = ['x'];
    try {
      // Routes not called before in this app: their serialisers compile now, over the polluted prototype.
      const res = await t.asOwner('GET', '/v1/admin/integrations/nope');
      expect(res.body).not.toContain('FST_ERR');
      expect(res.json()).toMatchObject({
        code: res.statusCode,
        type: expect.any(String),
        id: expect.any(String),
      });
    } finally {
      delete proto.anyOf;
    }
  });
});
