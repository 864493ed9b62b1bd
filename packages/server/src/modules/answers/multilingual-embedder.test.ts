import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadIndexed } from '../../../../testkit/src/server/files-indexing.js';
import { createTestApp, type TestApp } from '../../../../testkit/src/server/harness.js';
import { UseLiteEmbedder } from '../../search/embed/index.js';

/**
 * An operator's own multilingual model (issue #38): with PARLEY_EMBEDDING_MULTILINGUAL=true a French question is
 * searched by meaning too (the answer preview's debug details list the passages found by meaning); without it,
 * by words alone (none by meaning), as the English-only shipped model requires. The shipped USE-lite model stands
 * in for the operator's own (the setting is what is tested, not the model's French).
 */
describe('PARLEY_EMBEDDING_MULTILINGUAL', () => {
  const embedder = new UseLiteEmbedder();
  const apps: TestApp[] = [];
  const FRENCH = `# Livraison

Nous expédions chaque commande sous deux jours ouvrés. La livraison en Belgique prend trois à cinq jours.
`;
  const QUESTION = 'Combien de jours faut-il pour être livré en Belgique ?';

  /** A test app whose embedder is declared multilingual (an onnx model of the operator's own) or not. */
  const appWith = async (multilingual: boolean): Promise<TestApp> => {
    const env: Record<string, string> = multilingual
      ? {
          PARLEY_EMBEDDER: 'onnx',
          PARLEY_EMBEDDING_MODEL_DIR: '/models/multilingual-e5-small',
          PARLEY_EMBEDDING_MULTILINGUAL: 'true',
        }
      : {};
    const t = await createTestApp({ workers: true, embedder, env });
    apps.push(t);
    await uploadIndexed(t, 'livraison.md', FRENCH);
    return t;
  };
  const preview = async (t: TestApp) => {
    const res = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/answer-preview`, { question: QUESTION });
    expect(res.statusCode).toBe(200);
    return res.json() as { debug: { semantic?: { passages: unknown[] }; language: { question: string } } };
  };

  beforeAll(async () => {
    await embedder.ready();
  }, 120_000);
  afterAll(async () => {
    for (const t of apps) await t.close();
    await embedder.close();
  });

  it('searches a French question by meaning too when the embedder is declared multilingual', async () => {
    const { debug } = await preview(await appWith(true));
    expect(debug.language.question).toBe('fr');
    expect(debug.semantic?.passages.length).toBeGreaterThan(0);
  }, 120_000);

  it('searches a French question by words alone with the English-only model', async () => {
    const { debug } = await preview(await appWith(false));
    expect(debug.language.question).toBe('fr');
    expect(debug.semantic?.passages).toEqual([]);
  }, 120_000);
});
