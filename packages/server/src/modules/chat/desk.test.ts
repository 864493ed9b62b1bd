import type { InboxConversation, InboxCounts } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { chatClient, type TestChatUser } from '../../../../testkit/src/server/chat.js';
import { useClockedApp } from '../../../../testkit/src/server/clocked-app-fixture.js';
import { type TestApp, testDatabases } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';

const databases = testDatabases();

/** The inbox list and the desk's counts of the bot, as `token` reads them. */
function deskApi(t: TestApp) {
  const base = `/v1/admin/bots/${t.botId}/conversations`;
  const get = (url: string, token = t.owner.token) =>
    t.call({ method: 'GET', url, token, workspaceId: t.workspaceId });
  return {
    base,
    get,
    async list(query: string, token = t.owner.token): Promise<InboxConversation[]> {
      const res = await get(`${base}?pageSize=100${query ? `&${query}` : ''}`, token);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { conversations: InboxConversation[] }).conversations;
    },
    async counts(token = t.owner.token): Promise<InboxCounts> {
      const res = await get(`${base}/counts`, token);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { counts: InboxCounts }).counts;
    },
    handoff: (conv: string, body: Record<string, unknown>, token = t.owner.token) =>
      t.call({ method: 'POST', url: `${base}/${conv}/handoff`, token, workspaceId: t.workspaceId, body }),
  };
}

describe.each(databases)('the inbox desk on $name', ({ url: databaseUrl }) => {
  const { t, clock } = useClockedApp(databaseUrl ? { databaseUrl } : {});

  /** A visitor's conversation with one message (sent with the webchat's page and language). */
  async function visitorSays(user: Record<string, unknown>, text: string) {
    const chat = chatClient(t);
    const visitor: TestChatUser = await chat.user(user);
    const conv = await chat.conversation(visitor);
    const res = await chat.call('POST', '/messages', {
      key: visitor.key,
      body: {
        conversationId: conv,
        payload: { type: 'text', text },
        metadata: { page: 'https://shop.example/checkout', language: 'fr-CA' },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    clock.advance(1_000);
    return conv;
  }

  it('lists the Waiting, Mine, All and Resolved tabs with their counts, the oldest waiting first, with the visitor', async () => {
    const api = deskApi(t);
    const dev = await t.addMember('developer', 'dev-desk@example.com');
    const quiet = await visitorSays({ name: 'Quentin' }, 'opening hours?');
    const first = await visitorSays({ name: 'Ana', data: { email: 'ana@example.com' } }, 'my parcel is late');
    const second = await visitorSays({}, 'refund please');
    // `second` asks first, `first` later: the Waiting tab lists the one waiting longest first.
    expect((await api.handoff(second, { action: 'request' })).statusCode).toBe(200);
    clock.advance(1_000);
    expect((await api.handoff(first, { action: 'request' })).statusCode).toBe(200);
    clock.advance(1_000);
    expect((await api.counts()).waiting).toBe(2);

    const waiting = await api.list('state=pending');
    expect(waiting.map((c) => c.id)).toEqual([second, first]);
    expect(waiting[1]).toMatchObject({
      state: 'pending',
      waitingSince: expect.any(String),
      visitor: {
        name: 'Ana',
        email: 'ana@example.com',
        page: 'https://shop.example/checkout',
        language: 'fr-CA',
      },
    });
    expect(waiting[0]?.visitor).not.toHaveProperty('name');

    // The developer takes `first`: it leaves Waiting for the developer's Mine (not the owner's).
    const taken = await api.handoff(first, { action: 'take' }, dev.token);
    expect(taken.statusCode, taken.body).toBe(200);
    expect((await api.list('assignedTo=me', dev.token)).map((c) => c.id)).toEqual([first]);
    expect(await api.list('assignedTo=me')).toEqual([]);
    expect((await api.list(`assignedTo=${dev.accountId}`)).map((c) => c.id)).toEqual([first]);
    expect((await api.list('state=assigned'))[0]).toMatchObject({
      id: first,
      assignedTo: { accountId: dev.accountId, name: 'dev-desk' },
    });
    expect(await api.counts(dev.token)).toEqual({ waiting: 1, mine: 1, all: 3, resolved: 0 });
    expect(await api.counts()).toEqual({ waiting: 1, mine: 0, all: 3, resolved: 0 });

    expect((await api.handoff(first, { action: 'resolve' }, dev.token)).statusCode).toBe(200);
    expect((await api.list('state=resolved')).map((c) => c.id)).toEqual([first]);
    expect(await api.counts(dev.token)).toEqual({ waiting: 1, mine: 0, all: 3, resolved: 1 });
    // All: every conversation, the most recent activity first; the bot's own is in state bot.
    const all = await api.list('');
    expect(all.map((c) => c.id).sort()).toEqual([quiet, first, second].sort());
    expect(all.find((c) => c.id === quiet)?.state).toBe('bot');
  });

  it("finds conversations by a message's words or the visitor's name or e-mail, whatever the case", async () => {
    const api = deskApi(t);
    const parcel = await visitorSays({ name: 'Bruno Martin' }, 'Where is my PARCELBOX 100%?');
    const mail = await visitorSays({ data: { email: 'zoe@shop.example' } }, 'hello');
    const ids = async (search: string) =>
      (await api.list(`search=${encodeURIComponent(search)}`)).map((c) => c.id);
    expect(await ids('parcelbox')).toEqual([parcel]);
    expect(await ids('bruno')).toEqual([parcel]);
    expect(await ids('ZOE@shop')).toEqual([mail]);
    // The address a visitor left in the webchat's e-mail form is theirs too: shown and found.
    const chat = chatClient(t);
    const leo = await chat.user();
    const leoConv = await chat.conversation(leo);
    await chat.message(leo, leoConv, 'leo@mail.example', { contactEmail: 'leo@mail.example' });
    expect(await ids('leo@mail')).toEqual([leoConv]);
    expect((await api.list('search=leo%40mail'))[0]?.visitor?.email).toBe('leo@mail.example');
    // `%` and `_` are taken literally, not as patterns.
    expect(await ids('100%')).toEqual([parcel]);
    expect(await ids('1_0')).toEqual([]);
    expect(await ids('nothing like this')).toEqual([]);
    // The words of messages, not the JSON around them.
    expect(await ids('text')).toEqual([]);
    // Filters combine: the words within one tab.
    expect((await api.list('state=pending&search=parcelbox')).map((c) => c.id)).toEqual([]);
    expect((await api.handoff(parcel, { action: 'request' })).statusCode).toBe(200);
    expect((await api.list('state=pending&search=parcelbox')).map((c) => c.id)).toEqual([parcel]);
  });

  it("keeps internal notes beside a conversation that the visitor's API never returns", async () => {
    const api = deskApi(t);
    const chat = chatClient(t);
    const visitor = await chat.user({ name: 'Nora' });
    const conv = await chat.conversation(visitor);
    await chat.message(visitor, conv, 'my order never came');
    const notesUrl = `${api.base}/${conv}/notes`;
    const secret = 'Refund approved by finance; do not tell her about the coupon';
    const written = await t.asOwner('POST', notesUrl, { text: secret });
    expect(written.statusCode, written.body).toBe(201);
    expect(written.json()).toMatchObject({
      note: {
        conversationId: conv,
        text: secret,
        author: { accountId: t.owner.accountId, name: expect.any(String) },
      },
    });
    const dev = await t.addMember('developer', 'noting-dev@example.com');
    const second = await t.callWith(dev.token, 'POST', notesUrl, { text: 'Called her back' });
    expect(second.statusCode, second.body).toBe(201);
    const listed = await api.get(notesUrl);
    expect(listed.statusCode).toBe(200);
    const notes = (listed.json() as { notes: Array<{ text: string; author: { name: string } }> }).notes;
    expect(notes.map((n) => [n.text, n.author.name])).toEqual([
      [secret, expect.any(String)],
      ['Called her back', 'noting-dev'],
    ]);

    // Everything the visitor's side can read of the conversation holds no note.
    for (const path of [`/conversations/${conv}/messages`, `/conversations/${conv}`, '/conversations']) {
      const res = await chat.call('GET', path, { key: visitor.key });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain('Refund approved');
      expect(res.body).not.toContain('Called her back');
    }
    // Nor does the transcript or the inbox of the Admin API: notes are apart.
    expect((await api.get(`${api.base}/${conv}/messages`)).body).not.toContain('Refund approved');

    // A viewer reads the notes but writes none; bad bodies and unknown conversations are refused.
    const viewer = await t.addMember('viewer');
    expect((await api.get(notesUrl, viewer.token)).statusCode).toBe(200);
    const asViewer = await t.callWith(viewer.token, 'POST', notesUrl, { text: 'x' });
    expectError(asViewer, 403, 'Forbidden');
    expectError(await t.asOwner('POST', notesUrl, { text: '' }), 400, 'InvalidPayload');
    expectError(await t.asOwner('POST', notesUrl, { text: 'x', visible: true }), 400, 'InvalidPayload');
    expectError(await api.get(`${api.base}/conv_nope/notes`), 404, 'ResourceNotFound');
    expectError(
      await t.asOwner('POST', `${api.base}/conv_nope/notes`, { text: 'x' }),
      404,
      'ResourceNotFound',
    );
    const other = await t.otherTenant();
    expectError(
      await api.get(`/v1/admin/bots/${other.botId}/conversations/${conv}/notes`),
      404,
      'ResourceNotFound',
    );

    // The notes go with their conversation.
    expect((await chat.call('DELETE', `/conversations/${conv}`, { key: visitor.key })).statusCode).toBe(200);
    const left = await t.db.kysely
      .selectFrom('conversation_notes')
      .select('id')
      .where('conversation_id', '=', conv)
      .execute();
    expect(left).toEqual([]);
  });

  it('answers 400 to a bad filter, 403 to a bot key, 404 to another workspace, and lets a viewer read', async () => {
    const api = deskApi(t);
    expectError(await api.get(`${api.base}?state=waiting`), 400, 'InvalidQuery');
    expectError(await api.get(`${api.base}?search=`), 400, 'InvalidQuery');
    const asBot = await t.callWith(t.botKey, 'GET', `${api.base}?assignedTo=me`);
    expectError(asBot, 403, 'Forbidden');
    const other = await t.otherTenant();
    expectError(await api.get(`/v1/admin/bots/${other.botId}/conversations/counts`), 404, 'ResourceNotFound');
    expectError(
      await api.get(`/v1/admin/bots/${other.botId}/conversations?state=pending`),
      404,
      'ResourceNotFound',
    );
    const viewer = await t.addMember('viewer');
    expect((await api.counts(viewer.token)).mine).toBe(0);
    expect((await api.list('state=pending', viewer.token)).length).toBeGreaterThanOrEqual(0);
  });
});
