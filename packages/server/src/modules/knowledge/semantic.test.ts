import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFile } from '../../../../testkit/src/server/files-api.js';
import { settled, uploadText } from '../../../../testkit/src/server/files-indexing.js';
import { createTestApp, type TestApp } from '../../../../testkit/src/server/harness.js';
import { UseLiteEmbedder } from '../../search/embed/index.js';
import { botContext } from '../answers/scope.js';
import { searchService } from './search.js';

/**
 * Semantic search with the shipped model (USE-lite, 512 dimensions) through the whole service: questions
 * worded differently from the text find the right passage first in hybrid and semantic mode; Vector DB
 * Storage usage and its quota.
 */

/** Ten short passages on distinct topics, each with a question sharing none of its words (stopwords aside). */
const TOPICS = [
  {
    key: 'password.txt',
    text: 'To reset your password, open Settings, choose Security and follow the emailed link.',
    question: 'I forgot my login credentials, how can I recover access?',
  },
  {
    key: 'refunds.txt',
    text: 'Purchases may be returned within thirty days for a full refund.',
    question: 'Can I get reimbursed if I send an item back?',
  },
  {
    key: 'shipping.txt',
    text: 'Parcels leave our warehouse every weekday and arrive within five days.',
    question: 'How long does delivery of my order take?',
  },
  {
    key: 'weather.txt',
    text: 'Heavy rain and strong winds are expected across the coast tomorrow.',
    question: 'Will there be a storm at the seaside?',
  },
  {
    key: 'baking.txt',
    text: 'Bake the bread at two hundred degrees for forty minutes until golden.',
    question: 'What oven temperature for a loaf?',
  },
  {
    key: 'dogs.txt',
    text: 'Dogs need a walk at least twice a day and fresh water.',
    question: 'How often should my puppy go outside for exercise?',
  },
  {
    key: 'savings.txt',
    text: 'Interest on the savings account is paid monthly at two percent.',
    question: 'When do I earn returns on deposited cash?',
  },
  {
    key: 'sleep.txt',
    text: 'Adults should sleep seven to nine hours each night to stay healthy.',
    question: 'How much rest does a grown-up require?',
  },
  {
    key: 'passport.txt',
    text: 'Renew your passport at least six months before it expires.',
    question: 'When should I apply for new travel documents?',
  },
  {
    key: 'router.txt',
    text: 'Restart the router if the wireless connection keeps dropping.',
    question: 'My wifi is unstable, what should I do?',
  },
] as const;

const VECTOR_BYTES = 512 * 4;
/** Room for the ten topics' vectors and half of one more. */
const QUOTA = TOPICS.length * VECTOR_BYTES + VECTOR_BYTES / 2;

describe('semantic search with the shipped USE-lite model', () => {
  let t: TestApp;
  const embedder = new UseLiteEmbedder();
  const ids: Record<string, string> = {};

  const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    t.call({ method, url, token: t.botKey, headers: { 'x-bot-id': t.botId }, body });

  async function search(query: string, mode: string) {
    const res = await call('GET', `/v1/files/search?query=${encodeURIComponent(query)}&mode=${mode}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { passages: Array<{ content: string; score: number; file: { key: string } }> })
      .passages;
  }

  async function vectorUsage() {
    const res = await t.asOwner('GET', `/v1/admin/workspaces/${t.workspaceId}/usages`);
    expect(res.statusCode, res.body).toBe(200);
    const usages = (res.json() as { usages: Array<{ type: string; value: number; quota: number | null }> })
      .usages;
    return usages.find((u) => u.type === 'knowledgebase_vector_storage');
  }

  beforeAll(async () => {
    await embedder.ready();
    t = await createTestApp({
      workers: true,
      embedder,
      env: { PARLEY_QUOTA_VECTOR_STORAGE_BYTES: String(QUOTA) },
    });
    for (const topic of TOPICS) ids[topic.key] = (await uploadText(t, topic.key, topic.text)).id;
    for (const topic of TOPICS) {
      const file = await settled(t, ids[topic.key] as string, 600);
      expect(file.status, file.failedStatusReason).toBe('indexing_completed');
    }
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await embedder.close();
  });

  for (const topic of TOPICS) {
    it(`ranks ${topic.key} first for “${topic.question}” in hybrid and semantic mode, which words alone miss`, async () => {
      expect((await search(topic.question, 'lexical')).map((p) => p.file.key)).not.toContain(topic.key);
      const semantic = await search(topic.question, 'semantic');
      expect(semantic[0]?.file.key).toBe(topic.key);
      expect(semantic[0]?.content).toBe(topic.text);
      const hybrid = await search(topic.question, 'hybrid');
      expect(hybrid[0]?.file.key).toBe(topic.key);
      // Hybrid is the default.
      const res = await call('GET', `/v1/files/search?query=${encodeURIComponent(topic.question)}`);
      expect((res.json() as { passages: Array<{ file: { key: string } }> }).passages[0]?.file.key).toBe(
        topic.key,
      );
    });
  }

  // A word found in one passage only, where the model alone prefers other passages: fusion keeps the word match
  // in the top 3 (z-scores give a one-hit lexical list no weight; the dense list alone decided before).
  for (const [word, key] of [
    ['twice', 'dogs.txt'],
    ['expires', 'passport.txt'],
    ['thirty', 'refunds.txt'],
    ['purchases', 'refunds.txt'],
  ] as const) {
    it(`keeps ${key}, the only passage with “${word}”, in the top 3 in hybrid mode though the model prefers others`, async () => {
      expect((await search(word, 'lexical')).map((p) => p.file.key)).toEqual([key]);
      expect((await search(word, 'semantic'))[0]?.file.key).not.toBe(key);
      const hybrid = (await search(word, 'hybrid')).map((p) => p.file.key);
      expect(hybrid.slice(0, 3)).toContain(key);
    });
  }

  it('embeds a question once when it is searched again (hybrid, then by meaning, as a bot reply does)', async () => {
    const embedded: string[][] = [];
    const counting = {
      id: embedder.id,
      dimensions: embedder.dimensions,
      embed: (texts: string[]) => {
        embedded.push(texts);
        return embedder.embed(texts);
      },
      close: async () => {},
    };
    const service = searchService({
      index: t.app.services.index,
      embedder: counting,
      files: t.app.services.files,
      denseWeight: 0.15,
    });
    const ctx = botContext(t.workspaceId, t.botId);
    const hybrid = await service.search(ctx, { query: 'What oven temperature for a loaf?', mode: 'hybrid' });
    const semantic = await service.search(ctx, {
      query: 'What oven temperature for a loaf?',
      mode: 'semantic',
    });
    expect(hybrid[0]?.file.key).toBe('baking.txt');
    expect(semantic[0]?.file.key).toBe('baking.txt');
    expect(embedded).toEqual([['What oven temperature for a loaf?']]);
    await service.search(ctx, { query: 'Will there be a storm at the seaside?', mode: 'semantic' });
    expect(embedded).toHaveLength(2);
  });

  it('keeps the exact-word match first in hybrid mode when the query shares the text’s words', async () => {
    const hits = await search('savings account interest', 'hybrid');
    expect(hits[0]?.file.key).toBe('savings.txt');
  });

  it('reports Vector DB Storage usage of the workspace: one 512-d float32 vector per passage, with its quota', async () => {
    expect(await vectorUsage()).toMatchObject({ value: TOPICS.length * VECTOR_BYTES, quota: QUOTA });
  });

  it('re-indexes a file near the quota, since its new vectors replace its old ones', async () => {
    const res = await call('PUT', `/v1/files/${ids['router.txt']}/index`);
    expect(res.statusCode, res.body).toBe(200);
    const file = await settled(t, ids['router.txt'] as string, 600);
    expect(file.status, file.failedStatusReason).toBe('indexing_completed');
    expect((await vectorUsage())?.value).toBe(TOPICS.length * VECTOR_BYTES);
  });

  it('ends indexing_failed quota_exceeded when the vectors would not fit, and stores none of them', async () => {
    const extra = await uploadText(t, 'extra.txt', 'Penguins huddle together to survive the polar winter.');
    const file = await settled(t, extra.id, 600);
    expect(file.status).toBe('indexing_failed');
    expect(file.failedStatusReason).toMatch(
      new RegExp(`^quota_exceeded: Vector DB Storage quota \\(${QUOTA} bytes\\) would be exceeded`),
    );
    expect(await vectorUsage()).toMatchObject({ value: TOPICS.length * VECTOR_BYTES });
    const passages = await call('GET', `/v1/files/${extra.id}/passages`);
    expect((passages.json() as { passages: unknown[] }).passages).toEqual([]);
    expect((await search('penguins polar', 'lexical')).map((p) => p.file.key)).not.toContain('extra.txt');
  });

  it('frees the vectors of a deleted file at once, and a failed file then indexes on re-index', async () => {
    expect((await call('DELETE', `/v1/files/${ids['weather.txt']}`)).statusCode).toBe(200);
    expect((await vectorUsage())?.value).toBe((TOPICS.length - 1) * VECTOR_BYTES);
    const extra = (await getFile(t, 'extra.txt')).id;
    expect((await call('PUT', `/v1/files/${extra}/index`)).statusCode).toBe(200);
    expect((await settled(t, extra, 600)).status).toBe('indexing_completed');
    expect((await vectorUsage())?.value).toBe(TOPICS.length * VECTOR_BYTES);
    expect((await search('Which flightless birds live near the South Pole?', 'semantic'))[0]?.file.key).toBe(
      'extra.txt',
    );
  });
});
