import { beforeAll, describe, expect, it } from 'vitest';
import {
  FULL_WEBCHAT_CONFIGURATION as FULL,
  PARLEY_WEBCHAT_FIELDS as PARLEY_FIELDS,
  SPEC_WEBCHAT_FIELDS as SPEC_FIELDS,
} from '../../../../testkit/src/protocol/webchat-config.js';
import { caller, expectInvalid } from '../../../../testkit/src/server/admin-calls.js';
import { chatClient } from '../../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import type { TestMember } from '../../../../testkit/src/server/harness.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';

describe('bot webchat configuration', () => {
  const t = useTestApp();
  let viewer: TestMember;
  let billing: TestMember;
  let developer: TestMember;
  const url = () => `/v1/admin/bots/${t.botId}/webchat`;
  const get = async () => {
    const res = await t.asOwner('GET', url());
    expect(res.statusCode).toBe(200);
    return (res.json() as { configuration: Record<string, unknown> }).configuration;
  };
  beforeAll(async () => {
    viewer = await t.addMember('viewer');
    billing = await t.addMember('billing');
    developer = await t.addMember('developer');
  });

  it('starts a new bot with the feedback thumbs and the "Talk to a person" button on (the webchat defaults for everything else)', async () => {
    const bot = await t.asOwner('POST', '/v1/admin/bots', { name: 'Fresh' });
    const id = (bot.json() as { bot: { id: string } }).bot.id;
    const res = await t.asOwner('GET', `/v1/admin/bots/${id}/webchat`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ configuration: { feedbackEnabled: true, handoffButton: true } });
    const hosted = await t.call({ method: 'GET', url: `/webchat/v1/bots/${id}/config` });
    expect((hosted.json() as { configuration: unknown }).configuration).toEqual({
      feedbackEnabled: true,
      handoffButton: true,
    });
  });

  it("covers every field of the spec table and Parley's own in the full test configuration", () => {
    expect(Object.keys(FULL).sort()).toEqual([...SPEC_FIELDS, ...PARLEY_FIELDS].sort());
  });

  it('round-trips a full valid configuration through PUT and GET', async () => {
    const put = await t.asOwner('PUT', url(), { configuration: FULL });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ configuration: FULL });
    expect(await get()).toEqual(FULL);
  });

  it('replaces the whole configuration rather than merging', async () => {
    await t.asOwner('PUT', url(), { configuration: FULL });
    const put = await t.asOwner('PUT', url(), { configuration: { botName: 'Only this' } });
    expect(put.statusCode).toBe(200);
    expect(await get()).toEqual({ botName: 'Only this' });
  });

  it('accepts the radius bounds 0.5 and 4', async () => {
    for (const radius of [0.5, 4]) {
      const res = await t.asOwner('PUT', url(), { configuration: { radius } });
      expect(res.statusCode).toBe(200);
      expect(await get()).toEqual({ radius });
    }
  });

  it('accepts blank values, which mean "use the dashboard value"', async () => {
    const blank = {
      color: '',
      themeMode: '',
      variant: '',
      storageLocation: '',
      headerVariant: '',
      footer: '',
      botAvatar: '',
    };
    const res = await t.asOwner('PUT', url(), { configuration: blank });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ configuration: blank });
    expect(await get()).toEqual(blank);
  });

  it('accepts any web font name as fontFamily', async () => {
    const res = await t.asOwner('PUT', url(), { configuration: { fontFamily: 'Open Sans' } });
    expect(res.statusCode).toBe(200);
    expect(await get()).toEqual({ fontFamily: 'Open Sans' });
  });

  it('answers 400 InvalidPayload naming each bad field, and keeps the stored configuration', async () => {
    await t.asOwner('PUT', url(), { configuration: FULL });
    const res = await t.asOwner('PUT', url(), {
      configuration: {
        botName: 'fine',
        radius: 5,
        color: 'blue',
        themeMode: 'neon',
        website: { title: 'Website' },
        sparkles: true,
      },
    });
    const body = expectError(res, 400, 'InvalidPayload');
    expect(badFields(body).sort()).toEqual(['color', 'radius', 'sparkles', 'themeMode', 'website']);
    for (const field of ['radius', 'color', 'themeMode', 'website', 'sparkles']) {
      expect(body.message).toContain(field);
    }
    const why = Object.fromEntries((body.metadata?.errors ?? []).map((e) => [e.field, e.message]));
    expect(why.radius).toMatch(/0\.5 and 4/);
    expect(why.website).toMatch(/link/);
    expect(await get()).toEqual(FULL);
  });

  it.each([
    ['radius', 0.4],
    ['radius', '2'],
    ['color', '#12345'],
    ['variant', 'bold'],
    ['headerVariant', 'transparent'],
    ['storageLocation', 'cookies'],
    ['allowFileUpload', 'yes'],
    ['botAvatar', 'javascript:alert(1)'],
    ['additionalStylesheetUrl', 'not a url'],
    ['email', { title: 'Mail', link: 'not-an-address' }],
    ['phone', { title: 'Call', link: '' }],
    ['privacyPolicy', { title: 'Privacy', link: 'https://example.com', extra: 1 }],
    ['termsOfService', 'https://example.com/terms'],
    ['botName', 'n'.repeat(201)],
  ])('answers 400 naming %s for the invalid value %j', async (field, value) => {
    const body = expectError(
      await t.asOwner('PUT', url(), { configuration: { [field]: value } }),
      400,
      'InvalidPayload',
    );
    expect(badFields(body)).toEqual([field]);
  });

  it('sets and reads a greeting and suggested questions, which the webchat also reads publicly', async () => {
    const first = {
      greeting: 'Hello! Ask me about **refunds** or shipping.',
      suggestedQuestions: [
        'How do I get a refund?',
        'When will my parcel arrive?',
        'Do you ship abroad?',
        'Who are you?',
      ],
    };
    const put = await t.asOwner('PUT', url(), { configuration: first });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ configuration: first });
    expect(await get()).toEqual(first);
    const visitor = await t.app.inject({ method: 'GET', url: `/webchat/v1/bots/${t.botId}/config` });
    expect(visitor.json()).toMatchObject({ configuration: first });
    // A PUT replaces the whole configuration: left out, they are gone.
    await t.asOwner('PUT', url(), { configuration: { botName: 'Plain' } });
    expect(await get()).toEqual({ botName: 'Plain' });
  });

  it.each([
    ['greeting', 'g'.repeat(501), 'must be at most 500 characters'],
    ['greeting', 42, 'must be a string'],
    ['suggestedQuestions', 'How do I get a refund?', 'must be a list of questions (strings)'],
    ['suggestedQuestions', ['a', 'b', 'c', 'd', 'e'], 'must have at most 4 questions (has 5)'],
    ['suggestedQuestions', ['a', 7], 'question 2 must be a string'],
    ['suggestedQuestions', ['a', '   '], 'question 2 must not be blank'],
    ['suggestedQuestions', ['q'.repeat(201)], 'question 1 must be at most 200 characters'],
    ['suggestedQuestions', ['Refund?', 'refund? '], 'question 2 repeats question 1'],
  ])(
    'answers 400 naming %s for %j, with why, and keeps the stored configuration',
    async (field, value, why) => {
      await t.asOwner('PUT', url(), { configuration: { greeting: 'Kept', suggestedQuestions: ['Kept?'] } });
      const body = expectError(
        await t.asOwner('PUT', url(), { configuration: { [field]: value } }),
        400,
        'InvalidPayload',
      );
      expect(body.metadata?.errors).toEqual([{ field, message: why }]);
      expect(body.message).toContain(`${field} ${why}`);
      expect(await get()).toEqual({ greeting: 'Kept', suggestedQuestions: ['Kept?'] });
    },
  );

  it('answers 400 naming configuration when it is not an object', async () => {
    for (const configuration of ['dark', [1, 2], null]) {
      expectInvalid(await t.asOwner('PUT', url(), { configuration }), 'InvalidPayload', 'configuration');
    }
  });

  it('answers 400 naming configuration when the body lacks it', async () => {
    expectInvalid(await t.asOwner('PUT', url(), { botName: 'x' }), 'InvalidPayload', 'configuration');
  });

  it('answers 404 for the webchat of an unknown bot', async () => {
    expectError(await t.asOwner('GET', '/v1/admin/bots/nope/webchat'), 404, 'ResourceNotFound');
    expectError(
      await t.asOwner('PUT', '/v1/admin/bots/nope/webchat', { configuration: {} }),
      404,
      'ResourceNotFound',
    );
  });

  it("answers 404 for another workspace's bot webchat and leaves it unchanged", async () => {
    const other = await t.otherTenant();
    const otherUrl = `/v1/admin/bots/${other.botId}/webchat`;
    expectError(await t.asOwner('GET', otherUrl), 404, 'ResourceNotFound');
    expectError(
      await t.asOwner('PUT', otherUrl, { configuration: { botName: 'hijacked' } }),
      404,
      'ResourceNotFound',
    );
    const theirs = await caller(t, other.token, other.workspaceId)('GET', otherUrl);
    expect(theirs.json()).toEqual({ configuration: { feedbackEnabled: true, handoffButton: true } });
  });

  it('lets a viewer GET the configuration without its adminKey (a chat secret) but answers 403 to its PUT', async () => {
    await t.asOwner('PUT', url(), { configuration: FULL });
    const got = await t.call({ method: 'GET', url: url(), token: viewer.token, workspaceId: t.workspaceId });
    expect(got.statusCode).toBe(200);
    const { adminKey: _secret, ...withoutAdminKey } = FULL;
    expect(got.json()).toEqual({ configuration: withoutAdminKey });
    // Chat secrets need developer or above; the adminKey opens every conversation, so it follows that rule.
    expectError(await caller(t, viewer.token)('GET', `/v1/admin/bots/${t.botId}/chat`), 403, 'Forbidden');
    const byDeveloper = await caller(t, developer.token)('GET', url());
    expect(byDeveloper.json()).toEqual({ configuration: FULL });
    const put = await caller(t, viewer.token)('PUT', url(), {
      configuration: { botName: 'viewer was here' },
    });
    const body = expectError(put, 403, 'Forbidden');
    expect(body.message).toContain('viewer');
    expect(await get()).toEqual(FULL);
  });

  it('answers 403 to billing on both GET and PUT', async () => {
    const as = { token: billing.token, workspaceId: t.workspaceId, url: url() };
    expectError(await t.call({ method: 'GET', ...as }), 403, 'Forbidden');
    expectError(await t.call({ method: 'PUT', ...as, body: { configuration: {} } }), 403, 'Forbidden');
  });

  it('lets a developer update the configuration', async () => {
    const res = await caller(t, developer.token)('PUT', url(), {
      configuration: { botName: 'By developer' },
    });
    expect(res.statusCode).toBe(200);
    expect(await get()).toEqual({ botName: 'By developer' });
  });

  it('is what the Chat API follows from the very next request, each time it changes', async () => {
    const chat = chatClient(t);
    const user = await chat.user();
    const { key } = user;
    const id = await chat.conversation(user);
    const asAdmin = (adminKey: string) =>
      t.app.inject({
        method: 'GET',
        url: `/v1/chat/${t.botId}/conversations/${id}`,
        headers: { 'x-user-key': key, 'x-admin-key': adminKey },
      });
    const put = async (configuration: Record<string, unknown>) =>
      expect((await t.asOwner('PUT', url(), { configuration })).statusCode).toBe(200);
    try {
      for (const [now, before] of [
        ['key-one', 'key-two'],
        ['key-two', 'key-one'],
        ['key-one', 'key-two'],
      ] as const) {
        await put({ adminKey: now });
        expect((await asAdmin(now)).statusCode).toBe(200);
        expectError(await asAdmin(before), 403, 'Forbidden');
      }
      await put({});
      expectError(await asAdmin('key-one'), 403, 'Forbidden');
    } finally {
      await put({});
    }
  });

  it('answers 403 to a bot access key', async () => {
    expectError(
      await t.call({ method: 'GET', url: url(), token: t.botKey, workspaceId: t.workspaceId }),
      403,
      'Forbidden',
    );
  });
});
