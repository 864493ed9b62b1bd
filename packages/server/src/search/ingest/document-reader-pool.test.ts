import { getEventListeners } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { documentReader } from './document-reader.js';

describe('the document reader pool and its callers’ signals', () => {
  const reader = documentReader({ workers: 1, memoryMb: 256, timeoutMs: 10_000, idleMs: 60_000 });
  afterAll(() => reader.close());

  it('leaves no abort listener on a signal shared by many reads (a crawl’s), queued or not', async () => {
    const crawl = new AbortController();
    const html = (i: number) =>
      `<html><head><title>Page ${i}</title></head><body><main><h1>Page ${i}</h1><p>Text of page ${i}.</p></main></body></html>`;
    // Several at once: all but one wait in the queue first.
    const pages = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        reader.readPage({ html: html(i), url: `https://example.com/${i}`, signal: crawl.signal }),
      ),
    );
    expect(pages.map((p) => p.title)).toEqual(Array.from({ length: 12 }, (_, i) => `Page ${i}`));
    expect(getEventListeners(crawl.signal, 'abort')).toHaveLength(0);
  });

  it('still takes a queued read out of the queue when its signal aborts', async () => {
    const first = reader.readPage({ html: '<p>one</p>', url: 'https://example.com/a' });
    const stop = new AbortController();
    const queued = reader.readPage({ html: '<p>two</p>', url: 'https://example.com/b', signal: stop.signal });
    stop.abort(new Error('stopped'));
    await expect(queued).rejects.toThrow('stopped');
    await first;
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});
