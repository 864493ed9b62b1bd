import type { FileObject } from '@parley/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import { api, getFile, putBytes, store, upsert } from '../../../../testkit/src/server/files-api.js';
import { settled } from '../../../../testkit/src/server/files-indexing.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { badFields, expectError } from '../../../../testkit/src/server/wire.js';
import type { Embedder } from '../../search/types.js';

/**
 * A file's indexing.configuration (the public client's options and Parley's own): refused at upsert with a
 * 400 naming the field when Parley cannot honour it, and honoured by the indexing when it can.
 */

/** An embedder that records the texts it is given (vectors: one constant unit vector). */
class RecordingEmbedder implements Embedder {
  readonly id = 'recording-8';
  readonly dimensions = 8;
  texts: string[] = [];

  async embed(texts: string[]): Promise<Float32Array[]> {
    this.texts.push(...texts);
    return texts.map(() => Float32Array.from([1, 0, 0, 0, 0, 0, 0, 0]));
  }

  async close(): Promise<void> {}
}

interface ListedPassage {
  content: string;
  meta: { subtype: string };
}

const GUIDE = '# Guide\n\n## Refunds\n\nRefunds reach the original card within five days.\n';

describe('indexing.configuration at upsert', () => {
  const t = useTestApp();

  it('answers 400 InvalidPayload naming an option Parley does not support, and creates no file', async () => {
    const res = await api(t, 'PUT', '/v1/files', {
      key: 'summarized.txt',
      size: 10,
      index: true,
      indexing: { configuration: { summarization: { enable: true } } },
    });
    const error = expectError(res, 400, 'InvalidPayload');
    expect(badFields(error)).toEqual(['indexing.configuration.summarization.enable']);
    expect(error.message).toContain('indexing.configuration.summarization.enable is not supported by Parley');
    expectError(await api(t, 'GET', '/v1/files/summarized.txt'), 404, 'ResourceNotFound');
    const listed = (await api(t, 'GET', '/v1/files')).json() as { files: FileObject[] };
    expect(listed.files.map((f) => f.key)).not.toContain('summarized.txt');
  });

  it('names every refused field, unknown keys and bad values included', async () => {
    const res = await api(t, 'PUT', '/v1/files', {
      key: 'many.txt',
      size: 10,
      indexing: {
        configuration: {
          parsing: { mode: 'agent', smartCleanup: true },
          chunking: { maximumChunkLength: 20, embedBreadcrumb: true },
          vision: { indexPages: true },
          colour: 'blue',
        },
      },
    });
    expect(badFields(expectError(res, 400, 'InvalidPayload'))).toEqual([
      'indexing.configuration.parsing.mode',
      'indexing.configuration.parsing.smartCleanup',
      'indexing.configuration.chunking.maximumChunkLength',
      'indexing.configuration.vision.indexPages',
      'indexing.configuration.colour',
    ]);
  });

  it('keeps the file as it was when a re-upsert of its key is refused', async () => {
    const first = await upsert(t, { key: 'kept.txt', size: 3, tags: { v: '1' } });
    const res = await api(t, 'PUT', '/v1/files', {
      key: 'kept.txt',
      size: 4,
      tags: { v: '2' },
      indexing: { configuration: { chunking: { maxTokens: 5 } } },
    });
    expect(badFields(expectError(res, 400, 'InvalidPayload'))).toEqual([
      'indexing.configuration.chunking.maxTokens',
    ]);
    const after = await getFile(t, 'kept.txt');
    expect(after).toMatchObject({ id: first.id, tags: { v: '1' }, updatedAt: first.updatedAt });
  });

  it('accepts the public options Parley maps, and the ones turned off, as the public client sends them', async () => {
    const configuration = {
      parsing: { mode: 'standard', minimumParagraphLength: 40, smartCleanup: false },
      chunking: { maximumChunkLength: 900, embeddedContextLevels: 0, embedBreadcrumb: true },
      summarization: { enable: false, modelType: 'balanced', generateMasterSummary: false },
      vision: { transcribePages: false, indexPages: [] },
    };
    const file = await upsert(t, { key: 'public-options.txt', size: 3, indexing: { configuration } });
    expect(file.status).toBe('upload_pending');
  });
});

describe('indexing.configuration during indexing', () => {
  const embedder = new RecordingEmbedder();
  const t = useTestApp({ workers: true, embedder });
  beforeEach(() => {
    embedder.texts = [];
  });

  const passagesOf = async (id: string) =>
    ((await api(t, 'GET', `/v1/files/${id}/passages?limit=200`)).json() as { passages: ListedPassage[] })
      .passages;

  async function indexed(key: string, text: string, configuration?: Record<string, unknown>) {
    const file = await store(t, key, text, {
      index: true,
      ...(configuration ? { indexing: { configuration } } : {}),
    });
    const done = await settled(t, file.id, 2400);
    expect(done.status, done.failedStatusReason).toBe('indexing_completed');
    return done.id;
  }

  it('embeds a passage with its headings by default, and without them with chunking.embedBreadcrumb false', async () => {
    await indexed('crumbs-on.md', GUIDE);
    expect(embedder.texts).toContain('Guide › Refunds\nRefunds reach the original card within five days.');
    embedder.texts = [];
    const id = await indexed('crumbs-off.md', GUIDE, { chunking: { embedBreadcrumb: false } });
    expect(embedder.texts).toContain('Refunds reach the original card within five days.');
    expect(embedder.texts.some((text) => text.includes('›'))).toBe(false);
    // The breadcrumb is still stored and shown; only the embedded text changes.
    const listed = (await api(t, 'GET', `/v1/files/${id}/passages?limit=200`)).json() as {
      passages: Array<{ content: string; breadcrumb: string[] }>;
    };
    expect(listed.passages.find((p) => p.content.startsWith('Refunds reach'))?.breadcrumb).toEqual([
      'Guide',
      'Refunds',
    ]);
  });

  it('cuts passages to about chunking.maximumChunkLength characters', async () => {
    const sentences = Array.from(
      { length: 60 },
      (_, i) => `Sentence number ${i} explains one more rule of the refund policy in plain words.`,
    ).join(' ');
    const id = await indexed('long.txt', sentences, { chunking: { maximumChunkLength: 300 } });
    const passages = await passagesOf(id);
    expect(passages.length).toBeGreaterThan(15);
    for (const passage of passages) expect(passage.content.length).toBeLessThanOrEqual(300);
  });

  it('joins a paragraph shorter than parsing.minimumParagraphLength to the list after it', async () => {
    const text = '# Reset\n\nTo reset:\n\n- Hold the button\n- Wait ten seconds\n';
    const apart = await passagesOf(await indexed('apart.md', text));
    expect(apart.map((p) => p.meta.subtype)).toEqual(['title', 'paragraph', 'list']);
    const joined = await passagesOf(
      await indexed('joined.md', text, { parsing: { minimumParagraphLength: 20 } }),
    );
    expect(joined.map((p) => [p.meta.subtype, p.content])).toEqual([
      ['title', 'Reset'],
      ['list', 'To reset:\n- Hold the button\n- Wait ten seconds'],
    ]);
  });

  it('ends a file whose stored configuration it cannot honour indexing_failed invalid_configuration, naming the field', async () => {
    // Stored before upserts checked it.
    const file = await upsert(t, { key: 'old-config.txt', size: 5, index: true });
    await t.db.kysely
      .updateTable('files')
      .set({ indexing_configuration: JSON.stringify({ summarization: { enable: true } }) })
      .where('id', '=', file.id)
      .execute();
    const res = await putBytes(t, file.uploadUrl, Buffer.from('hello'));
    expect(res.statusCode, res.body).toBe(200);
    const done = await settled(t, file.id, 2400);
    expect(done.status).toBe('indexing_failed');
    expect(done.failedStatusReason).toMatch(
      /^invalid_configuration: indexing\.configuration\.summarization\.enable is not supported by Parley/,
    );
  });
});
