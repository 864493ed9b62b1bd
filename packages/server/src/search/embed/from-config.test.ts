import { describe, expect, it } from 'vitest';
import { EmbedderError } from './errors.js';
import { type EmbedderSettings, embedderFromConfig } from './from-config.js';
import { OpenAiEmbedder } from './openai.js';
import { UseLiteEmbedder } from './use-lite.js';

describe('embedderFromConfig', () => {
  it('defaults to the shipped USE-lite model, started lazily', async () => {
    const embedder = embedderFromConfig();
    expect(embedder).toBeInstanceOf(UseLiteEmbedder);
    expect(embedder?.id).toBe('use-lite-512@0.2.0');
    expect(embedder?.dimensions).toBe(512);
    expect((embedder as UseLiteEmbedder).stats().workers).toBe(0);
    await embedder?.close();
  });

  it('passes worker and batch settings to USE-lite, and refuses impossible ones', async () => {
    const embedder = embedderFromConfig({ embedder: 'use-lite', workers: 2, batchSize: 16 });
    expect(embedder).toBeInstanceOf(UseLiteEmbedder);
    await embedder?.close();
    expect(() => embedderFromConfig({ batchSize: 64 })).toThrow(/batchSize must be an integer from 1 to 32/);
  });

  it('builds the OpenAI-compatible embedder from url, model, key and dimensions', () => {
    const embedder = embedderFromConfig({
      embedder: 'openai',
      url: 'http://127.0.0.1:11434/v1',
      model: 'nomic-embed-text',
      apiKey: 'sk-x',
      dimensions: 768,
    });
    expect(embedder).toBeInstanceOf(OpenAiEmbedder);
    expect(embedder?.id).toBe('openai:nomic-embed-text');
    expect(embedder?.dimensions).toBe(768);
  });

  it('names the missing variables when openai is chosen without url or model', () => {
    expect(() => embedderFromConfig({ embedder: 'openai' })).toThrow(
      'PARLEY_EMBEDDER=openai needs PARLEY_EMBEDDINGS_URL and PARLEY_EMBEDDINGS_MODEL',
    );
    expect(() => embedderFromConfig({ embedder: 'openai', url: 'https://api.openai.com' })).toThrow(
      'PARLEY_EMBEDDER=openai needs PARLEY_EMBEDDINGS_MODEL',
    );
  });

  it('returns null for none (lexical search only)', () => {
    expect(embedderFromConfig({ embedder: 'none' })).toBeNull();
  });

  it('refuses an unknown kind', () => {
    const settings = { embedder: 'bert' } as unknown as EmbedderSettings;
    expect(() => embedderFromConfig(settings)).toThrow(EmbedderError);
    expect(() => embedderFromConfig(settings)).toThrow(/use-lite, onnx, openai or none, got "bert"/);
  });
});
