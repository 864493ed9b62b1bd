import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { threadCpu } from '../../../../testkit/src/server/thread-cpu.js';
import { canReadThreadNice, newThreads, threadNices } from '../../../../testkit/src/server/threads.js';
import { DEFAULT_CHUNK_OPTIONS, ExtractionError } from '../types.js';
import { chunkDocument } from './chunk.js';
import { documentReader } from './document-reader.js';
import { extractDocument } from './extract/index.js';
import { MAX_MARKDOWN_NESTING } from './extract/markdown.js';
import { extractPage } from './extract/web-page.js';

const chunkOptions = DEFAULT_CHUNK_OPTIONS;

/**
 * A long ordinary Markdown document (~9 MB, under every bound of the Markdown reader): it takes seconds
 * to read. (Deeply nested Markdown no longer serves: the reader refuses it before parsing.)
 */
const long = Buffer.from(
  Array.from(
    { length: 90_000 },
    (_, i) => `Paragraph ${i}: the *quick* brown fox jumps over the [lazy dog](https://example.com/${i}).\n`,
  ).join('\n'),
);

/**
 * Expects the CPU time of a read to have been spent mostly in other threads (a worker): reading in this thread
 * would put most of it here: 60-75 % of the process's CPU (the rest the garbage collector's threads) when these
 * reads were run in this thread, against 1-15 % through the worker (posting the bytes, taking the answer). CPU
 * time, unlike a timer's pause (a wall-clock time), is not stretched by other processes loading the machine.
 */
function expectReadElsewhere({ threadMs, processMs }: { threadMs: number; processMs: number }): void {
  expect(processMs).toBeGreaterThan(0);
  expect(threadMs, `this thread used ${threadMs} of the ${processMs} ms of CPU`).toBeLessThan(processMs / 3);
}

/** Runs `read`, expects it to fail with an ExtractionError too_large, and returns that error's message and the CPU times. */
async function expectTooLarge(
  read: () => Promise<unknown>,
): Promise<{ message: string; threadMs: number; processMs: number }> {
  const { result: error, ...cpu } = await threadCpu(() =>
    read().then(
      () => undefined,
      (failure: unknown) => failure as ExtractionError,
    ),
  );
  expect(error).toBeInstanceOf(ExtractionError);
  expect(error?.code).toBe('too_large');
  return { message: error?.message ?? '', ...cpu };
}

describe('documentReader (extraction and chunking in worker threads)', () => {
  const reader = documentReader({ workers: 1, memoryMb: 96, timeoutMs: 1500, idleMs: 60_000 });
  afterAll(() => reader.close());

  const readFaq = (r: typeof reader) =>
    r.read({ bytes: markdown, contentType: 'text/markdown', key: 'faq.md', chunkOptions });
  const markdown = Buffer.from(
    '# Returns\n\nYou may return any item within 30 days of delivery for a full refund.\n\n## Shipping\n\nOrders ship within two business days.\n',
  );

  it('reads a document into the same passages as extraction and chunking in this thread', async () => {
    const { passages, language } = await reader.read({
      bytes: markdown,
      contentType: 'text/markdown',
      key: 'faq.md',
      chunkOptions,
    });
    const expected = chunkDocument(await extractDocument(markdown, 'text/markdown', 'faq.md'), chunkOptions);
    expect(passages).toEqual(expected);
    expect(passages.map((p) => p.content).join(' ')).toContain('30 days of delivery');
    expect(language).toBeNull(); // not asked for
  });

  it("detects the document's language from its passages in the worker, when asked", async () => {
    const german = Buffer.from(
      '# Rückgabe\n\nSie können jeden Artikel innerhalb von 30 Tagen nach der Lieferung zurückgeben und erhalten den vollen Kaufpreis zurück.\n',
    );
    const read = (bytes: Buffer) =>
      reader.read({ bytes, contentType: 'text/markdown', key: 'x.md', chunkOptions, detectLanguage: true });
    expect((await read(german)).language).toBe('de');
    expect((await read(markdown)).language).toBe('en');
  });

  it('fails a document that takes longer than the bound with too_large, while this thread keeps running', async () => {
    const roomy = documentReader({ workers: 1, memoryMb: 2048, timeoutMs: 500 });
    await readFaq(roomy);
    const { message, ...cpu } = await expectTooLarge(() =>
      roomy.read({ bytes: long, contentType: 'text/markdown', key: 'long.md', chunkOptions }),
    );
    // The pool's 500 ms timer ended the read (the worker's own bound says 450 ms); without it the read would
    // have completed, with passages, not failed.
    expect(message).toBe('"long.md" took longer than 500 ms to read, the limit for one document.');
    expectReadElsewhere(cpu);
    await roomy.close();
  });

  it('fails 5 MB of Markdown nested thousands deep with too_large in seconds (not its time bound), and the next document reads', async () => {
    const deep = Buffer.from(
      Array.from({ length: 6000 }, (_, i) => `${'>'.repeat(i % 2000)} line ${i}`).join('\n'),
    );
    expect(deep.length).toBeGreaterThan(5_000_000);
    const patient = documentReader({ workers: 1, memoryMb: 512, timeoutMs: 120_000 });
    try {
      // Only the one pass before the lexer says this (markdown.test.ts shows the lexer is not called): the
      // lexer took minutes on it, and the 120 s bound would say "took longer", after the test's own time.
      const { message } = await expectTooLarge(() =>
        patient.read({ bytes: deep, contentType: 'text/markdown', key: 'deep.md', chunkOptions }),
      );
      expect(message).toBe(
        `"deep.md" is too large to index: it has more levels of Markdown nesting than the limit of ${MAX_MARKDOWN_NESTING}.`,
      );
      expect((await readFaq(patient)).passages.length).toBeGreaterThan(0);
    } finally {
      await patient.close();
    }
  });

  it('fails a document that needs more memory than allowed with too_large, and the next document reads', async () => {
    // ~24 MB of JSON with a million small objects: far more than 96 MB of heap once parsed and extracted.
    const json = Buffer.from(
      `[${Array.from({ length: 1_000_000 }, (_, i) => `{"name":"item ${i}","text":"word ${i % 977}"}`).join(',')}]`,
    );
    const { message, ...cpu } = await expectTooLarge(() =>
      reader.read({ bytes: json, contentType: 'application/json', key: 'huge.json', chunkOptions }),
    );
    expect(message).toMatch(/needs more memory to read than the 96 MB allowed|took longer than/);
    expectReadElsewhere(cpu);
    // The worker that failed was replaced.
    expect((await readFaq(reader)).passages.length).toBeGreaterThan(0);
  });

  it('passes on extraction errors with their reason code', async () => {
    await expect(
      reader.read({
        bytes: Buffer.from('%PDF-1.7 not really'),
        contentType: 'application/pdf',
        key: 'bad.pdf',
        chunkOptions,
      }),
    ).rejects.toMatchObject({ name: 'ExtractionError', code: 'unreadable_document' });
    await expect(
      reader.read({ bytes: Buffer.from([0, 1, 2, 3]), contentType: 'image/png', key: 'x.png', chunkOptions }),
    ).rejects.toMatchObject({ code: 'unsupported_format' });
  });

  it('stops a read when its signal aborts, with the signal’s reason', async () => {
    const controller = new AbortController();
    const reading = reader.read({
      bytes: long,
      contentType: 'text/markdown',
      key: 'long.md',
      chunkOptions,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('shutting down')), 100);
    await expect(reading).rejects.toThrow('shutting down');
    // Queued reads wait for a worker; they run once it is free.
    expect((await readFaq(reader)).passages.length).toBeGreaterThan(0);
  });

  it.runIf(canReadThreadNice)(
    'reads in threads at the nice value given (Linux), the default at the process’s own',
    async () => {
      const nices = async (nice: number | undefined): Promise<number[]> => {
        const lowered = documentReader({
          workers: 1,
          memoryMb: 96,
          timeoutMs: 5000,
          ...(nice === undefined ? {} : { nice }),
        });
        try {
          const before = threadNices();
          await readFaq(lowered);
          return [...newThreads(before, threadNices()).values()];
        } finally {
          await lowered.close();
        }
      };
      expect(await nices(19)).toContain(19);
      const plain = await nices(undefined);
      expect(plain.length).toBeGreaterThan(0);
      expect(plain).not.toContain(19);
    },
  );

  it('rejects reads after close', async () => {
    const other = documentReader({ workers: 1, memoryMb: 96, timeoutMs: 5000 });
    await other.close();
    await expect(
      other.read({ bytes: markdown, contentType: 'text/markdown', key: 'faq.md', chunkOptions }),
    ).rejects.toThrow('closed');
  });

  describe("web pages (a crawl's)", () => {
    const page = (body: string) => `<!doctype html><html><head><title>Returns</title></head><body>
<header><nav><a href="/">Home</a> <a href="docs/p1">Docs</a> MENUWORD</nav></header>
<div class="cookie-banner">COOKIEWORD we use cookies</div>
<main><h1>Returns</h1>${body}</main><footer>FOOTERWORD all rights reserved</footer></body></html>`;
    /** A help page of ~1.3 MB: seconds of Readability and Markdown on this thread. */
    const longPage = page(
      Array.from(
        { length: 6_000 },
        (_, i) =>
          `<h2>Question ${i}</h2><p>You may return item ${i} within 30 days of delivery for a refund, <a href="/q/${i}">details</a>.</p>`,
      ).join('\n'),
    );
    const pages = documentReader({ workers: 1, memoryMb: 256, timeoutMs: 120_000, idleMs: 60_000 });
    afterAll(() => pages.close());

    it('extracts a page in a worker: the same title, Markdown and links as extractPage in this thread', async () => {
      const html = page(
        '<p>You may return any item within 30 days of delivery for a full refund, no questions asked.</p>',
      );
      const url = 'https://help.example.com/returns/';
      const read = await pages.readPage({ html, url });
      expect(read).toEqual(extractPage(html, url));
      expect(read.title).toBe('Returns');
      expect(read.links).toContain('https://help.example.com/returns/docs/p1');
      expect(read.markdown).not.toMatch(/MENUWORD|COOKIEWORD|FOOTERWORD/);
    });

    it('does not hold this thread while it extracts a long page', async () => {
      const { result, ...cpu } = await threadCpu(() =>
        pages.readPage({ html: longPage, url: 'https://help.example.com/all' }),
      );
      expect(result.markdown).toContain('You may return item 5999 within 30 days');
      expect(result.links).toHaveLength(6_002);
      expectReadElsewhere(cpu);
    });

    it('takes a page before the documents waiting (the crawl waits for it)', async () => {
      const order: string[] = [];
      const busy = pages.read({ bytes: long, contentType: 'text/markdown', key: 'long.md', chunkOptions });
      const waiting = pages
        .read({ bytes: markdown, contentType: 'text/markdown', key: 'faq.md', chunkOptions })
        .then(() => order.push('document'));
      const page = pages
        .readPage({ html: longPage.slice(0, 2_000), url: 'https://help.example.com/a' })
        .then(() => order.push('page'));
      await Promise.all([busy, waiting, page]);
      expect(order).toEqual(['page', 'document']);
    });

    it('fails a page that takes longer than a document may with too_large, naming its URL', async () => {
      // A bound far under the page's work (over a second on an idle machine; load only makes it longer).
      const hasty = documentReader({ workers: 1, memoryMb: 256, timeoutMs: 100 });
      onTestFinished(() => hasty.close());
      await hasty.ready();
      const { message } = await expectTooLarge(() =>
        hasty.readPage({ html: longPage, url: 'https://help.example.com/all' }),
      );
      expect(message).toContain('"https://help.example.com/all" took longer than');
    });
  });
});
