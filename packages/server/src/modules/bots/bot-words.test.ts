import type { InboxMessage } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { botReplyTo, chatClient, type TestChatUser } from '../../../../testkit/src/server/chat.js';
import { uploadIndexed } from '../../../../testkit/src/server/files-indexing.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { postgresTestUrl } from '../../../../testkit/src/server/harness.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';
import { INTRO_TEXT, NOT_FOUND_TEXT } from '../answers/format.js';
import DE from './words/de.json' with { type: 'json' };
import FR from './words/fr.json' with { type: 'json' };

/**
 * The bot's own words per language (issue #38, item 3), through the Admin API and the whole chat: a visitor's
 * question is answered in its language (the built-in words of that language, or the bot's own for it), the
 * handoff messages follow the visitor's language, and bad per-language settings are refused with 400s.
 */

const RUECKGABE = `# Rückgabe und Erstattung

## Rückgabefrist

Sie können jeden unbenutzten Artikel innerhalb von 30 Tagen nach der Lieferung ohne Angabe von Gründen zurückgeben.

## Erstattung

Die Erstattung erreicht Ihre Karte innerhalb von 5 Werktagen, sobald das Paket bei uns angekommen ist.
`;

const pgUrl = postgresTestUrl();

describe.each([
  { name: 'SQLite', databaseUrl: undefined },
  ...(pgUrl ? [{ name: 'PostgreSQL', databaseUrl: pgUrl }] : []),
])("the bot's words per language ($name)", ({ databaseUrl }) => {
  const t = useTestApp({ workers: true, ...(databaseUrl ? { databaseUrl } : {}) });
  let chat: ReturnType<typeof chatClient>;
  let user: TestChatUser;

  const setReplies = async (replies: Record<string, unknown>) => {
    const res = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}`, { replies });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { bot: { replies: Record<string, unknown> } }).bot.replies;
  };
  const ask = async (text: string) =>
    botReplyTo(chat, user, await chat.conversation(user), { type: 'text', text });
  const replyText = (reply: { payload: { text?: string; markdown?: string } }) =>
    reply.payload.markdown ?? reply.payload.text ?? '';

  beforeAll(async () => {
    await uploadIndexed(t, 'rueckgabe.md', RUECKGABE);
    chat = chatClient(t);
    user = await chat.user();
  }, 60_000);

  it('answers a German question with German words before the German quote, and says "not found" in German', async () => {
    await setReplies({});
    const answer = await ask('Innerhalb von wie vielen Tagen kann ich einen Artikel zurückgeben?');
    expect(replyText(answer)).toContain(DE.intro);
    expect(replyText(answer)).toContain('innerhalb von 30 Tagen');
    expect(replyText(answer)).not.toContain(INTRO_TEXT);
    const nothing = await ask('Welcher Bus fährt morgens zum Zoo?');
    expect(replyText(nothing)).toBe(DE.notFound);
    // A short follow-up says too little alone: the visitor's earlier German question tells its language.
    const conversation = await chat.conversation(user);
    await botReplyTo(chat, user, conversation, { type: 'text', text: 'Welcher Bus fährt morgens zum Zoo?' });
    const short = await botReplyTo(chat, user, conversation, { type: 'text', text: 'Zoo?' });
    expect(replyText(short)).toBe(DE.notFound);
    // English is said as before: the built-in English text.
    const english = await ask('Which bus goes to the zoo on public holidays?');
    expect(english.payload).toEqual({ type: 'text', text: NOT_FOUND_TEXT });
  });

  it("says the bot's own words of the question's language, its default language's for a language without words", async () => {
    const stored = await setReplies({
      notFound: 'Nothing here: write to [us](mailto:help@example.com).',
      locales: { de: { notFound: 'Nichts gefunden: schreiben Sie [uns](mailto:hilfe@example.com).' } },
    });
    expect(stored).toEqual({
      notFound: 'Nothing here: write to [us](mailto:help@example.com).',
      locales: { de: { notFound: 'Nichts gefunden: schreiben Sie [uns](mailto:hilfe@example.com).' } },
    });
    const german = await ask('Welcher Bus fährt morgens zum Zoo?');
    expect(replyText(german)).toBe('Nichts gefunden: schreiben Sie [uns](mailto:hilfe@example.com).');
    const french = await ask('Quel bus va au zoo les jours fériés depuis la gare ?');
    expect(replyText(french)).toBe(FR.notFound);
    const english = await ask('Which bus goes to the zoo on public holidays?');
    expect(replyText(english)).toBe('Nothing here: write to [us](mailto:help@example.com).');

    // A bot whose default language is German: its top-level texts are German, and a question in a language
    // without built-in words (Korean) gets them.
    await setReplies({ language: 'de', notFound: 'Leider nichts. Rufen Sie [an](tel:+4930123).' });
    const korean = await ask('공휴일에 동물원에 가는 버스는 무엇인가요?');
    expect(replyText(korean)).toBe('Leider nichts. Rufen Sie [an](tel:+4930123).');
    const germanAgain = await ask('Welcher Bus fährt morgens zum Zoo?');
    expect(replyText(germanAgain)).toBe('Leider nichts. Rufen Sie [an](tel:+4930123).');
    await setReplies({});
  });

  it("tells a German visitor who asks for a person, and who answers now, in German (the bot's own words first)", async () => {
    await setReplies({ locales: { 'de-AT': { handoffWaiting: 'Einen Moment, ich hole jemanden.' } } });
    const conversation = await chat.conversation(user);
    const asked = await chat.call('POST', '/messages', {
      key: user.key,
      body: {
        conversationId: conversation,
        payload: { type: 'text', text: 'Ich möchte bitte mit einem Menschen sprechen' },
        metadata: { handoff: 'request', language: 'de-AT' },
      },
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const base = `/v1/admin/bots/${t.botId}/conversations/${conversation}`;
    const taken = await t.asOwner('POST', `${base}/handoff`, { action: 'take' });
    expect(taken.statusCode, taken.body).toBe(200);
    const name = (taken.json() as { handoff: { assignedTo: { name: string } } }).handoff.assignedTo.name;
    expect((await t.asOwner('POST', `${base}/handoff`, { action: 'hand_back' })).statusCode).toBe(200);
    const transcript = await t.asOwner('GET', `${base}/messages?pageSize=100`);
    const notices = (transcript.json() as { messages: InboxMessage[] }).messages
      .filter((m) => m.answer === 'handoff')
      .map((m) => m.text);
    expect(notices).toEqual([
      'Einen Moment, ich hole jemanden.',
      DE.handoffJoined.replace('{name}', name),
      DE.handoffLeft.replace('{name}', name),
    ]);
    await setReplies({});
  });

  it('stores texts per language under canonical tags, trimmed, a language without texts left out', async () => {
    expect(
      await setReplies({
        language: 'fr-ca',
        intro: '  Voici :  ',
        locales: { 'de-at': { intro: 'Bitte:' }, en: { clarify: 'Which one?' }, es: {} },
      }),
    ).toEqual({
      language: 'fr-CA',
      intro: 'Voici :',
      locales: { 'de-AT': { intro: 'Bitte:' }, en: { clarify: 'Which one?' } },
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ['replies.language', { language: 'ko' }],
    ['replies.language', { language: 'not a tag' }],
    ['replies.locales.xx', { locales: { xx: { intro: 'Hi' } } }],
    ['replies.locales.de.intro', { locales: { de: { intro: '   ' } } }],
    ['replies.locales.de.notFound', { locales: { de: { notFound: 'Siehe [hier](javascript:alert(1))' } } }],
    ['handoffWaiting', { locales: { de: { handoffWaiting: 'x'.repeat(501) } } }],
    ['replies.locales', { locales: { de: { greeting: 'Hallo' } } }],
    ['replies.locales.fr-CA', { locales: { 'fr-ca': { intro: 'a' }, 'fr-CA': { intro: 'b' } } }],
    [
      'replies.locales',
      {
        locales: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`fr-${100 + i}`, { intro: 'x' }])),
      },
    ],
  ])('answers 400 naming %s for a bad language setting, changing nothing', async (field, replies) => {
    const before = await setReplies({ language: 'de', intro: 'Bitte:' });
    const res = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}`, { name: 'Changed', replies });
    expect(badFields(expectError(res, 400, 'InvalidPayload')).join(' ')).toContain(field);
    const bot = (await t.asOwner('GET', `/v1/admin/bots/${t.botId}`)).json() as {
      bot: { name: string; replies: unknown };
    };
    expect(bot.bot.replies).toEqual(before);
    expect(bot.bot.name).not.toBe('Changed');
  });
});
