import { beforeAll, describe, expect, it } from 'vitest';
import { useChatVisitor } from '../../../../testkit/src/server/chat-visitor.js';
import { HANDBOOK, PARKING, uploadIndexed } from '../../../../testkit/src/server/files-indexing.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { testDatabases } from '../../../../testkit/src/server/harness.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import { eventually } from '../../../../testkit/src/shared/eventually.js';
import { botContext } from './scope.js';
import { SOURCE_GONE_TEXT, SOURCE_NOT_LINKED_TEXT, sourceLinkUrl } from './sources.js';

/**
 * The source links of the bot's knowledge answers, through the whole chat: a user asks, the chat reply job
 * answers with links to `/v1/chat/{botId}/messages/{id}/sources/{n}` for the sources the bot's `sourceLinks`
 * setting links (by default `public`: public_content files and a metadata sourceUrl; `all`: every file), and
 * each click on one redirects, as the bot's setting then allows, to a URL made for that moment, for as long as
 * the answer and its source exist.
 */

const PUBLIC_URL = 'https://parley.example.com';
const TTL_MS = 10 * 60_000;

interface BotReply {
  id: string;
  isBot: boolean;
  payload: { type: string; markdown?: string; text?: string };
  metadata?: { sources?: Array<{ fileId: string; key: string }> };
}

describe.each(testDatabases())('source links of knowledge answers ($name)', ({ url: databaseUrl }) => {
  let offsetMs = 0;
  const t = useTestApp({
    workers: true,
    clock: () => new Date(Date.now() + offsetMs),
    env: { PARLEY_PUBLIC_URL: PUBLIC_URL },
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  const { chat, user } = useChatVisitor(t);
  let handbookId: string;
  let parkingId: string;
  let kbId: string;
  const bot = () => botContext(t.workspaceId, t.botId);
  /** A crawled web page: its metadata names the page it was read from. */
  const CRAWLED_URL = 'https://help.example.com/gift-cards?from=parley';

  /** Sets the bot's sourceLinks through the Admin API. */
  async function setSourceLinks(sourceLinks: 'none' | 'public' | 'all'): Promise<void> {
    const res = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}`, { sourceLinks });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { bot: { sourceLinks: string } }).bot.sourceLinks).toBe(sourceLinks);
  }

  /** Asserts that a source URL answers 404 "not linked", with no redirect. */
  async function expectNotLinked(link: string): Promise<void> {
    const res = await open(link);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(expectError(res, 404, 'ResourceNotFound').message).toBe(SOURCE_NOT_LINKED_TEXT);
  }

  /** Asks the bot as the chat user, in a conversation of its own, and answers the bot's reply. */
  async function ask(question: string): Promise<BotReply> {
    const conversation = await chat.conversation(user);
    await chat.message(user, conversation, question);
    let reply: BotReply | undefined;
    await eventually(
      async () => {
        const res = await chat.call('GET', `/conversations/${conversation}/messages`, { key: user.key });
        reply = (res.json() as { messages: BotReply[] }).messages.find((m) => m.isBot);
        return reply !== undefined;
      },
      15_000,
      25,
      `a reply to "${question}"`,
    );
    return reply as BotReply;
  }

  /** The links of a markdown answer, in order. */
  const linksOf = (reply: BotReply) =>
    [...(reply.payload.markdown ?? '').matchAll(/\]\((https?:[^)]+)\)/g)].map((m) => m[1] as string);

  /** Opens a link without credentials, as a browser does on a click. */
  const open = (link: string) => {
    const u = new URL(link);
    return t.app.inject({ method: 'GET', url: `${u.pathname}${u.search}` });
  };

  beforeAll(async () => {
    handbookId = await uploadIndexed(t, 'handbook.md', HANDBOOK);
    parkingId = await uploadIndexed(t, 'visitors.md', PARKING, { accessPolicies: ['public_content'] });
    const kb = await t.app.services.knowledgeBases.create(bot(), { name: 'Support' });
    kbId = kb.id;
    await t.app.services.knowledgeBases.link(bot(), kbId, handbookId);
    await t.app.services.knowledgeBases.link(bot(), kbId, parkingId);
    for (const [key, text, sourceUrl] of [
      ['crawl/gift-cards.md', '# Gift cards\n\nGift cards never expire and can be used online.', CRAWLED_URL],
      [
        'crawl/lockers.md',
        '# Lockers\n\nLockers for bags are next to the reception desk.',
        'javascript:alert(1)',
      ],
    ]) {
      const id = await uploadIndexed(t, key as string, text as string, { metadata: { sourceUrl } });
      await t.app.services.knowledgeBases.link(bot(), kbId, id);
    }
  }, 60_000);

  let refund: BotReply;
  let firstLocation: string;
  let publicReply: BotReply;
  let crawledReply: BotReply;

  it('by default names a private source without a link, and its source URL answers 404, never the file', async () => {
    const got = await t.asOwner('GET', `/v1/admin/bots/${t.botId}`);
    expect((got.json() as { bot: { sourceLinks: string } }).bot.sourceLinks).toBe('public');
    const reply = await ask('How long do I have to ask for a refund?');
    const markdown = reply.payload.markdown ?? '';
    expect(markdown).toContain('> Customers may ask for a refund within 30 days of purchase.');
    // Named by its title, as plain text: no link, no URL anywhere in the reply.
    expect(markdown).toMatch(/— Parley handbook$/);
    expect(linksOf(reply)).toEqual([]);
    expect(JSON.stringify(reply)).not.toMatch(/https?:|\/content|\/sources\//);
    expect(reply.metadata?.sources).toEqual([
      { fileId: handbookId, key: 'handbook.md', score: expect.any(Number) },
    ]);
    // The URL the link would have had (and an answer of an older version carries) opens nothing.
    await expectNotLinked(sourceLinkUrl(PUBLIC_URL, t.botId, reply.id, 0));
  });

  it('by default links a public_content source, redirecting to its permanent URL', async () => {
    publicReply = await ask('Where can visitors park?');
    expect(publicReply.metadata?.sources?.[0]).toMatchObject({ fileId: parkingId });
    const [link] = linksOf(publicReply);
    expect(link).toBe(`${PUBLIC_URL}/v1/chat/${t.botId}/messages/${publicReply.id}/sources/0`);
    const res = await open(link as string);
    expect(res.statusCode, res.body).toBe(302);
    const location = String(res.headers.location);
    expect(location).toBe((await t.app.services.files.get(bot(), parkingId)).url);
    const target = new URL(location);
    expect(target.searchParams.get('public')).toBe('1');
    expect(target.searchParams.has('expires')).toBe(false);
    expect((await open(location)).body).toBe(PARKING);
  });

  it('by default links a crawled page to the sourceUrl its metadata names, not to the stored copy', async () => {
    crawledReply = await ask('Do gift cards expire?');
    expect(crawledReply.payload.markdown).toContain('Gift cards never expire');
    const [link] = linksOf(crawledReply);
    expect(link).toBe(`${PUBLIC_URL}/v1/chat/${t.botId}/messages/${crawledReply.id}/sources/0`);
    const res = await open(link as string);
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe(CRAWLED_URL);
  });

  it('names a source whose sourceUrl is no http(s) URL without a link', async () => {
    const reply = await ask('Where are the lockers for bags?');
    expect(reply.payload.markdown).toContain('Lockers for bags are next to the reception desk.');
    expect(linksOf(reply)).toEqual([]);
    expect(reply.payload.markdown).not.toContain('javascript');
    await expectNotLinked(sourceLinkUrl(PUBLIC_URL, t.botId, reply.id, 0));
  });

  it('with sourceLinks all, answers with permanent source links that name the answer itself', async () => {
    await setSourceLinks('all');
    refund = await ask('How long do I have to ask for a refund?');
    expect(refund.payload.markdown).toContain('refund within 30 days');
    expect(refund.metadata?.sources?.[0]).toMatchObject({ fileId: handbookId, key: 'handbook.md' });
    // Unguessable: a ULID time part then 80 random bits.
    expect(refund.id).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
    const links = linksOf(refund);
    expect(links).toEqual([`${PUBLIC_URL}/v1/chat/${t.botId}/messages/${refund.id}/sources/0`]);
    // Named by the document's first heading (it has no metadata title).
    expect(refund.payload.markdown).toContain(`— [Parley handbook](${links[0]})`);
  });

  it('redirects a click on the link, without credentials, to a URL that downloads the exact document', async () => {
    const res = await open(linksOf(refund)[0] as string);
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    firstLocation = String(res.headers.location);
    const target = new URL(firstLocation);
    expect(target.origin).toBe(PUBLIC_URL);
    expect(target.pathname).toBe(`/v1/files/${handbookId}/content`);
    expect(Number(target.searchParams.get('expires'))).toBeGreaterThan(Date.now() + offsetMs);
    const download = await open(firstLocation);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.rawPayload.equals(Buffer.from(HANDBOOK))).toBe(true);
  });

  it('still works after the download URL it gave has expired: a new URL each time', async () => {
    offsetMs += TTL_MS + 60_000;
    const stale = await open(firstLocation);
    expect(expectError(stale, 403, 'Forbidden').message).toMatch(/expired/);
    const res = await open(linksOf(refund)[0] as string);
    expect(res.statusCode, res.body).toBe(302);
    const location = String(res.headers.location);
    expect(location).not.toBe(firstLocation);
    const download = await open(location);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.rawPayload.equals(Buffer.from(HANDBOOK))).toBe(true);
    // The conversation history still shows the answer with the same link.
    const again = await chat.call('GET', `/messages/${refund.id}`, { key: user.key });
    expect(linksOf((again.json() as { message: BotReply }).message)).toEqual(linksOf(refund));
  });

  it("follows the bot's current setting when an old link is opened: public stops private files, none every link", async () => {
    const privateLink = linksOf(refund)[0] as string;
    const publicLink = linksOf(publicReply)[0] as string;
    const crawledLink = linksOf(crawledReply)[0] as string;
    expect((await open(privateLink)).statusCode).toBe(302);

    await setSourceLinks('public');
    await expectNotLinked(privateLink);
    expect((await open(publicLink)).statusCode).toBe(302);
    expect((await open(crawledLink)).headers.location).toBe(CRAWLED_URL);

    await setSourceLinks('none');
    for (const link of [privateLink, publicLink, crawledLink]) await expectNotLinked(link);
    const named = await ask('Where can visitors park?');
    expect(named.payload.markdown).toMatch(/— Visitors$/);
    expect(linksOf(named)).toEqual([]);

    // `all` links the stored copy, even of a crawled page.
    await setSourceLinks('all');
    expect((await open(privateLink)).statusCode).toBe(302);
    const stored = new URL(String((await open(crawledLink)).headers.location));
    expect(stored.pathname).toMatch(/^\/v1\/files\/file_[^/]+\/content$/);
  });

  it('answers 404 for an unknown message, a user message and a source number out of range', async () => {
    const base = `/v1/chat/${t.botId}/messages`;
    const get = (path: string) => t.app.inject({ method: 'GET', url: `${base}/${path}` });
    const unknown = expectError(
      await get('msg_01K00000000000000000000000/sources/0'),
      404,
      'ResourceNotFound',
    );
    expect(unknown.message).toMatch(/not found/);

    const conversationId = await chat.conversation(user);
    const mine = await chat.message(user, conversationId, 'just saying hello');
    // The user's message as if it had sources: still not the bot's answer.
    const posted = await chat.call('POST', '/messages', {
      key: user.key,
      body: {
        conversationId,
        payload: { type: 'text', text: 'forged' },
        metadata: { sources: [{ fileId: handbookId, key: 'handbook.md' }] },
      },
    });
    const forged = (posted.json() as { message: { id: string } }).message.id;
    for (const id of [mine.id, forged])
      expect(expectError(await get(`${id}/sources/0`), 404, 'ResourceNotFound').message).toMatch(/not found/);

    const outOfRange = expectError(await get(`${refund.id}/sources/1`), 404, 'ResourceNotFound');
    expect(outOfRange.message).toBe(`Message "${refund.id}" has no source 1`);
    expectError(await get(`${refund.id}/sources/99`), 404, 'ResourceNotFound');

    const nothing = await ask('What is the capital of Mongolia?');
    expect(nothing.metadata?.sources).toEqual([]);
    expectError(await get(`${nothing.id}/sources/0`), 404, 'ResourceNotFound');
    // Another bot's root does not open this bot's answers.
    const other = await t.otherTenant();
    expectError(
      await t.app.inject({ method: 'GET', url: `/v1/chat/${other.botId}/messages/${refund.id}/sources/0` }),
      404,
      'ResourceNotFound',
    );
  }, 30_000);

  it('answers 404 once the answer itself is deleted', async () => {
    const reply = await ask('When do parcels leave the warehouse?');
    const [link] = linksOf(reply);
    expect((await open(link as string)).statusCode).toBe(302);
    const deleted = await chat.call('DELETE', `/messages/${reply.id}`, { bot: true });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(expectError(await open(link as string), 404, 'ResourceNotFound').message).toBe(
      `Message "${reply.id}" was not found`,
    );
  });

  it('answers 404 "no longer available" once the file leaves the knowledge base, and works again when it is back', async () => {
    const link = linksOf(refund)[0] as string;
    await t.app.services.knowledgeBases.unlink(bot(), kbId, handbookId);
    const res = await open(link);
    expect(res.headers['cache-control']).toBe('no-store');
    const gone = expectError(res, 404, 'ResourceNotFound');
    expect(gone.message).toBe(SOURCE_GONE_TEXT);
    expect(gone.message).toMatch(/This source is no longer available/);
    await t.app.services.knowledgeBases.link(bot(), kbId, handbookId);
    expect((await open(link)).statusCode).toBe(302);
  });

  it('answers 404 "no longer available" once the file is deleted', async () => {
    const link = linksOf(refund)[0] as string;
    const before = await open(link);
    expect(before.statusCode).toBe(302);
    await t.app.services.files.delete(bot(), handbookId);
    const gone = expectError(await open(link), 404, 'ResourceNotFound');
    expect(gone.message).toBe(SOURCE_GONE_TEXT);
    // The URL handed out before the deletion downloads nothing either.
    expect((await open(String(before.headers.location))).statusCode).toBe(404);
  });

  it('answers 404 for a file deleted from a bot without knowledge bases too', async () => {
    await t.app.services.knowledgeBases.delete(bot(), kbId);
    const reply = await ask('Where can visitors park?');
    const [link] = linksOf(reply);
    expect((await open(link as string)).statusCode).toBe(302);
    await t.app.services.files.delete(bot(), parkingId);
    expect(expectError(await open(link as string), 404, 'ResourceNotFound').message).toBe(SOURCE_GONE_TEXT);
  });
});
