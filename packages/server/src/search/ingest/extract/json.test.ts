import { describe, expect, it } from 'vitest';
import { extractText, failureOf } from '../../../../../testkit/src/server/extract-fixtures.js';

describe('JSON extraction', () => {
  it('flattens objects to path: value lines and gives each object of an array its own block', async () => {
    const json = JSON.stringify({
      title: 'Catalogue',
      shop: { name: 'Fruit & Co', open: true, tags: ['fresh', 'local'] },
      products: [
        { sku: 'A1', name: 'Apple', price: 1.2, sizes: [] },
        { sku: 'P2', name: 'Pear', price: null, 'unit weight': '180 g' },
      ],
      updated: '2025-01-01',
    });
    const document = await extractText(json, 'application/json', 'catalogue.json');
    expect(document.title).toBe('Catalogue');
    expect(document.blocks).toEqual([
      {
        type: 'paragraph',
        text: 'title: Catalogue\nshop.name: Fruit & Co\nshop.open: true\nshop.tags: fresh, local',
      },
      { type: 'paragraph', text: 'products[0].sku: A1\nproducts[0].name: Apple\nproducts[0].price: 1.2' },
      {
        type: 'paragraph',
        text: 'products[1].sku: P2\nproducts[1].name: Pear\nproducts[1]."unit weight": 180 g',
      },
      { type: 'paragraph', text: 'updated: 2025-01-01' },
    ]);
  });

  it('reads a top-level array of records and a bare scalar', async () => {
    const records = await extractText(
      '[{"q":"Why?","a":"Because."},{"q":"How?"}]',
      'application/json',
      'faq.json',
    );
    expect(records.blocks.map((block) => block.text)).toEqual([
      '[0].q: Why?\n[0].a: Because.',
      '[1].q: How?',
    ]);
    const scalar = await extractText('"just text"', 'application/ld+json', 'x.jsonld');
    expect(scalar.blocks).toEqual([{ type: 'paragraph', text: 'value: just text' }]);
  });

  it('reads JSON Lines one value a line', async () => {
    const document = await extractText('{"a":1}\n{"a":2}\n', 'application/octet-stream', 'rows.jsonl');
    expect(document.blocks.map((block) => block.text)).toEqual(['[0].a: 1', '[1].a: 2']);
  });

  it('fails unreadable_document naming the parse error, and empty_document for {}', async () => {
    const error = await failureOf(extractText('{"a": ', 'application/json', 'bad.json'));
    expect(error).toMatchObject({ code: 'unreadable_document' });
    expect((error as Error).message).toMatch(/"bad.json" could not be read as JSON: .*\(.+\)/);
    await expect(extractText('{}', 'application/json', 'empty.json')).rejects.toMatchObject({
      code: 'empty_document',
    });
  });
});
