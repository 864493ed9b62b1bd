import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { testDatabases } from '../../../../testkit/src/server/harness.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';

interface BotBody {
  id: string;
  name: string;
  replies: Record<string, string>;
}

describe.each(testDatabases())('bot reply texts on $name', ({ url: databaseUrl }) => {
  const t = useTestApp(databaseUrl ? { databaseUrl } : {});

  const create = async (body: Record<string, unknown>) => {
    const res = await t.asOwner('POST', '/v1/admin/bots', body);
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { bot: BotBody }).bot;
  };
  const get = async (id: string) => {
    const res = await t.asOwner('GET', `/v1/admin/bots/${id}`);
    expect(res.statusCode).toBe(200);
    return (res.json() as { bot: BotBody }).bot;
  };

  it('has no texts of its own by default (every reply is the default)', async () => {
    const bot = await create({ name: 'Defaults' });
    expect(bot.replies).toEqual({});
    expect((await get(bot.id)).replies).toEqual({});
  });

  it('stores the texts on create (trimmed), replaces the whole set on update, keeps it on an update without it', async () => {
    const bot = await create({
      name: 'Own words',
      replies: {
        notFound:
          '  Sorry, no idea. Write to [support](mailto:help@example.com) or call [us](tel:+4930123).  ',
        intro: 'From our docs:',
      },
    });
    expect(bot.replies).toEqual({
      notFound: 'Sorry, no idea. Write to [support](mailto:help@example.com) or call [us](tel:+4930123).',
      intro: 'From our docs:',
    });
    const updated = await t.asOwner('PUT', `/v1/admin/bots/${bot.id}`, {
      replies: { clarify: 'Which one do you mean?' },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((updated.json() as { bot: BotBody }).bot.replies).toEqual({ clarify: 'Which one do you mean?' });
    await t.asOwner('PUT', `/v1/admin/bots/${bot.id}`, { name: 'Renamed' });
    expect(await get(bot.id)).toMatchObject({
      name: 'Renamed',
      replies: { clarify: 'Which one do you mean?' },
    });
    const cleared = await t.asOwner('PUT', `/v1/admin/bots/${bot.id}`, { replies: {} });
    expect((cleared.json() as { bot: BotBody }).bot.replies).toEqual({});
  });

  it('answers 400 naming the text for a blank, too long, badly linked or unknown text, changing nothing', async () => {
    const bot = await create({ name: 'Kept', replies: { intro: 'Ours:' } });
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ notFound: '   ' }, 'replies.notFound'],
      [{ notFound: '' }, 'notFound'],
      [{ notFound: 'x'.repeat(1001) }, 'notFound'],
      [{ intro: 'y'.repeat(301) }, 'intro'],
      [{ clarify: 'z'.repeat(301) }, 'clarify'],
      [{ notFound: 'Click [here](javascript:alert(1))' }, 'replies.notFound'],
      [{ intro: '![x](data:image/png;base64,AAAA)' }, 'replies.intro'],
      [{ clarify: 'See [faq](/faq)' }, 'replies.clarify'],
      [{ notFound: 42 }, 'notFound'],
      [{ handoff: 'Talk to a human' }, 'replies'],
    ];
    for (const [replies, field] of bad) {
      const body = expectError(
        await t.asOwner('PUT', `/v1/admin/bots/${bot.id}`, { name: 'Changed', replies }),
        400,
        'InvalidPayload',
      );
      expect(badFields(body).join(' '), JSON.stringify(replies)).toContain(field);
    }
    const created = expectError(
      await t.asOwner('POST', '/v1/admin/bots', { name: 'Never', replies: { notFound: '[x](ftp://a.b)' } }),
      400,
      'InvalidPayload',
    );
    expect(badFields(created)).toContain('replies.notFound');
    expect(await get(bot.id)).toMatchObject({ name: 'Kept', replies: { intro: 'Ours:' } });
    const names = await t.asOwner('GET', '/v1/admin/bots?name=Never');
    expect((names.json() as { bots: unknown[] }).bots).toEqual([]);
  });
});
