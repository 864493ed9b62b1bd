// The Console's Knowledge and Files in a real browser (Debian Chromium), served by an in-process Parley with its
// indexing workers: the owner creates a knowledge base, drops a Markdown file, a PDF, a DOCX, a broken DOCX
// and a file named like markup (the file picker), plus one file by a drag-and-drop `drop` event; each upload
// shows its progress, then each file's indexing state changes live until "Indexed" without a reload; the
// broken one says why in words and is offered no Re-index; finished uploads fold into one summary line, 31 at
// once too, with the knowledge's count and size. The Files table (60 more files seeded through the API) searches
// by key, filters by status and tag, sorts and pages on the server. The file panel edits a tag, makes the
// file public and shows its URL, lists passages with page numbers, downloads and deletes. Markup in a file
// name stays text; axe finds nothing; the layout holds at 390 px (dark). A viewer sees it all but is offered no
// upload, change or deletion.
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHROMIUM, haveChromium } from '../packages/testkit/src/e2e/browser.js';
import { axe, overflows, useConsoleSuite } from '../packages/testkit/src/e2e/console.js';
import { DOCX_TYPE, docxOf, pdfOf } from '../packages/testkit/src/e2e/documents.js';
import { botApi } from '../packages/testkit/src/e2e/knowledge.js';
import { testSite } from '../packages/testkit/src/server/test-site.js';
import { asBot } from '../packages/testkit/src/shared/bot-request.js';

const chromiumHere = haveChromium('console knowledge browser tests');

const HANDBOOK = `# Acme handbook

## Vacation

Every employee receives 25 days of paid vacation per calendar year.
`;
const MARKUP_NAME = '<img src=x onerror=window.pwned=1>.md';
// As long as indexing may take on a loaded machine, looked at as often as the other polls (the config's 100 ms).
const INDEXING = { timeout: 90_000, interval: 100 };

/** Where a screenshot is kept (e2e/artifacts/, a test artifact). */
const artifact = (name: string) => fileURLToPath(new URL(`./artifacts/${name}`, import.meta.url));

/** The list item of `key` in the knowledge base's files. */
const linkedRow = (page: Page, key: string) =>
  page
    .getByRole('list', { name: 'Files in this knowledge base' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: key, exact: true }) });

/**
 * A new knowledge base of the suite's bot named `name` (its id `knowledgeBaseId`), opened on its Website tab;
 * `tabs` is its section bar.
 */
async function websiteTab(suite: ReturnType<typeof useConsoleSuite>, name: string) {
  const { knowledgeBase } = (await botApi(suite.origin, suite.t)('POST', '/v1/files/knowledge-bases', {
    name,
  })) as { knowledgeBase: { id: string } };
  const { page, problems } = await suite.signedInPage(1280, 'light');
  await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/knowledge/${knowledgeBase.id}`);
  const tabs = page.getByRole('navigation', { name: 'Knowledge base sections' });
  await tabs.getByRole('link', { name: 'Website' }).click();
  return { page, problems, tabs, knowledgeBaseId: knowledgeBase.id };
}

describe.skipIf(!chromiumHere)('console knowledge and files in a browser', () => {
  const suite = useConsoleSuite({ workers: true });

  it('knowledge base: create, drop files, watch uploads and indexing live, a failure in words without Re-index', async () => {
    const { page, problems } = await suite.signedInPage(1280, 'light');
    const bot = `/console/bots/${suite.t.botId}`;
    await page.goto(`${suite.origin}${bot}/knowledge`);
    await expect.poll(() => page.getByRole('heading', { name: 'Knowledge bases' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('No knowledge base yet.').isVisible()).toBe(true);
    expect(await axe(page), 'knowledge bases, empty').toEqual([]);

    await page.getByLabel('Knowledge base name').fill('Handbook');
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    // Creating opens the new knowledge base, and says so there.
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toBe('Knowledge base "Handbook" created. Drop your documents into it below.');
    expect(page.url()).toMatch(/\/knowledge\/kb_[^/]+$/);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Drop PDFs, Word or Markdown files here' }).isVisible())
      .toBe(true);
    await expect.poll(() => page.getByText('No files yet.').isVisible()).toBe(true);
    expect(await axe(page), 'knowledge base, empty').toEqual([]);

    // Notes whether an indexing progress bar ever shows (the page updates itself; it is never reloaded).
    await page.evaluate(`(() => {
      window.sawIndexing = false;
      new MutationObserver(() => {
        if (document.querySelector('[role=progressbar][aria-label^="Progress of"]')) window.sawIndexing = true;
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    })()`);
    await page.getByLabel('Choose files').setInputFiles([
      { name: 'handbook.md', mimeType: 'text/markdown', buffer: Buffer.from(HANDBOOK) },
      {
        name: 'guide.pdf',
        mimeType: 'application/pdf',
        buffer: await pdfOf(['Apples grow on trees in orchards.', 'Bananas grow in tropical climates.']),
      },
      {
        name: 'policy.docx',
        mimeType: DOCX_TYPE,
        buffer: await docxOf('Leave policy', ['Employees get 25 days of leave.']),
      },
      { name: 'broken.docx', mimeType: 'application/octet-stream', buffer: Buffer.alloc(4096, 7) },
      { name: MARKUP_NAME, mimeType: 'text/markdown', buffer: Buffer.from('# Markup\n\nJust text.') },
    ]);
    // One more by drag and drop: a `drop` event carrying the file, as a browser sends it.
    const dropped = await page.evaluateHandle(`(() => {
      const data = new DataTransfer();
      data.items.add(new File(['# Dropped\\n\\nDropped by drag and drop.'], 'dropped.md', { type: 'text/markdown' }));
      return data;
    })()`);
    await page.dispatchEvent('.drop-zone', 'drop', { dataTransfer: dropped });

    const keys = ['handbook.md', 'guide.pdf', 'policy.docx', MARKUP_NAME, 'dropped.md'];
    for (const key of keys) {
      await expect.poll(() => linkedRow(page, key).textContent(), INDEXING).toContain('Indexed');
    }
    const broken = linkedRow(page, 'broken.docx');
    await expect.poll(() => broken.textContent(), INDEXING).toContain('Indexing failed:');
    expect(await broken.textContent()).toContain('The file could not be read.');
    expect(await broken.textContent()).toContain('could not be read as DOCX');
    expect(await broken.textContent()).not.toContain('unreadable_document');
    // The finished uploads fold into one line; the failure stays listed under it, with its reason in words.
    await expect
      .poll(() => page.locator('.upload-summary').textContent(), INDEXING)
      .toBe('6 uploaded · 5 indexed · 1 failed');
    expect(await page.getByRole('progressbar', { name: /^Upload of / }).count()).toBe(0);
    const failedUploads = page.getByRole('list', { name: 'Failed uploads' }).getByRole('listitem');
    expect(await failedUploads.allTextContents()).toEqual([
      expect.stringMatching(/^broken\.docxIndexing failed: The file could not be read\. .*as DOCX/),
    ]);
    expect(await page.evaluate('window.sawIndexing')).toBe(true);
    // The knowledge base's counts come from their own request, after the rows': as long as indexing may take.
    await expect
      .poll(() => page.getByText('6 files · 5 indexed · 1 failed').isVisible(), INDEXING)
      .toBe(true);

    // No Re-index for a file that cannot be read: the same bytes would fail again.
    expect(await broken.getByRole('button', { name: /^Re-index/ }).count()).toBe(0);

    // Removing a file from the knowledge base keeps the file (it stays in the Files table).
    await linkedRow(page, 'dropped.md')
      .getByRole('button', { name: 'Remove dropped.md from this knowledge base' })
      .click();
    await expect.poll(() => linkedRow(page, 'dropped.md').count()).toBe(0);
    await expect
      .poll(() => page.getByText('5 files · 4 indexed · 1 failed').isVisible(), INDEXING)
      .toBe(true);

    // Markup in a file name is text.
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.locator('main img').count()).toBe(0);
    expect(await axe(page), 'knowledge base with files').toEqual([]);
    await page.screenshot({ path: artifact('console-knowledge-base-1280.png'), fullPage: true });

    // Rename and delete (confirmed) on the list of knowledge bases.
    await page.getByRole('link', { name: '← Knowledge bases' }).click();
    await page.getByRole('button', { name: 'Rename Handbook' }).click();
    await page.getByLabel('New name').fill('Staff handbook');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Staff handbook' }).isVisible()).toBe(true);
    // A knowledge base named with markup is listed as text, then deleted after a confirmation.
    const oldName = '<img src=x onerror=window.pwned=2> Old stuff';
    await page.getByLabel('Knowledge base name').fill(oldName);
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByRole('heading', { name: 'Drop PDFs, Word or Markdown files here' }).waitFor();
    await page.getByRole('link', { name: '← Knowledge bases' }).click();
    await expect.poll(() => page.getByRole('link', { name: oldName, exact: true }).isVisible()).toBe(true);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.locator('main img').count()).toBe(0);
    await page.getByRole('button', { name: `Delete ${oldName}` }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: `Delete ${oldName}` }).click();
    await page.getByRole('button', { name: 'Yes, delete this knowledge base' }).click();
    await expect.poll(() => page.getByRole('link', { name: oldName }).count()).toBe(0);
    await expect.poll(() => page.getByText('5 files · 4 indexed · 1 failed').isVisible()).toBe(true);
    expect(problems).toEqual([]);
  }, 180_000);

  it('files table: the count, search, status and tag filters, sort, server pages; the file panel', async () => {
    // 60 more files through the API (records waiting for their upload), tagged batch=seed.
    for (let i = 0; i < 60; i += 1) {
      const body = { key: `seed/doc-${String(i).padStart(2, '0')}.txt`, size: 10, tags: { batch: 'seed' } };
      const res = await fetch(
        `${suite.origin}/v1/files`,
        asBot({ accessKey: suite.t.botKey, id: suite.t.botId }, 'PUT', body),
      );
      expect(res.status).toBe(200);
    }
    const { page, problems } = await suite.signedInPage(1280, 'light');
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/files`);
    const table = page.getByRole('table', { name: 'Files' });
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(25);
    // How many in all: the 6 dropped in the first test and the 60 seeded; then how many the filters keep.
    const total = page.locator('.files-total');
    expect(await total.textContent()).toBe('66 files');
    expect(await axe(page), 'files table').toEqual([]);
    await page.screenshot({ path: artifact('console-files-1280.png'), fullPage: true });

    await page.getByLabel('Status').selectOption({ label: 'Waiting for upload' });
    await expect.poll(() => page.getByText('Page 1').isVisible()).toBe(true);
    await expect.poll(() => total.textContent()).toBe('60 files match');
    await expect.poll(() => rows.first().textContent()).toContain('seed/doc-');
    const previous = page.getByRole('button', { name: 'Previous page' });
    const next = page.getByRole('button', { name: 'Next page' });
    expect(await previous.isDisabled()).toBe(true);
    await next.click();
    await expect.poll(() => page.getByText('Page 2').isVisible()).toBe(true);
    await expect.poll(() => rows.count()).toBe(25);
    await next.click();
    await expect.poll(() => rows.count()).toBe(10);
    expect(await next.isDisabled()).toBe(true);
    await previous.click();
    await expect.poll(() => page.getByText('Page 2').isVisible()).toBe(true);

    await page.getByLabel('Status').selectOption({ label: 'Indexing failed' });
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('broken.docx');
    await page.getByLabel('Status').selectOption({ label: 'Any status' });

    await page.getByLabel('Search by name').fill('seed/doc-0');
    await table.getByRole('button', { name: /^Key/ }).click();
    await expect
      .poll(() => table.getByRole('columnheader', { name: /^Key/ }).getAttribute('aria-sort'))
      .toBe('ascending');
    await expect.poll(() => rows.first().textContent()).toContain('seed/doc-00.txt');
    expect(await rows.count()).toBe(10);
    expect(await total.textContent()).toBe('10 files match');
    await table.getByRole('button', { name: /^Key/ }).click();
    await expect
      .poll(() => table.getByRole('columnheader', { name: /^Key/ }).getAttribute('aria-sort'))
      .toBe('descending');
    await expect.poll(() => rows.first().textContent()).toContain('seed/doc-09.txt');
    await page.getByLabel('Search by name').fill('');
    await page.getByLabel('Tag', { exact: true }).selectOption('batch');
    await page.getByLabel('Tag value').selectOption('seed');
    await expect.poll(() => rows.count()).toBe(25);
    expect(await table.getByText('handbook.md').count()).toBe(0);
    await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'Any tag' });

    await page.getByLabel('Search by name').fill('GUIDE');
    await expect.poll(() => rows.count()).toBe(1);
    await table.getByRole('link', { name: 'guide.pdf' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'guide.pdf' }).isVisible()).toBe(true);
    const passages = page.getByRole('list', { name: 'Passages' });
    await expect.poll(() => passages.textContent()).toContain('Page 2');
    expect(await passages.textContent()).toContain('Bananas grow in tropical climates.');
    // The file's knowledge bases are a query of their own ('…' until it answers), apart from the passages.
    await expect.poll(() => page.getByText('Staff handbook').isVisible()).toBe(true);
    const download = await page.getByRole('link', { name: 'Download' }).getAttribute('href');
    expect((await fetch(download ?? '')).status).toBe(200);

    await page.getByLabel('Tag key').fill('team');
    await page.getByLabel('Tag value').fill('support <b>desk</b>');
    await page.getByRole('button', { name: 'Add tag' }).click();
    const tags = page.getByRole('list', { name: 'Tags' });
    await expect.poll(() => tags.textContent()).toContain('team=support <b>desk</b>');
    await page.getByRole('button', { name: 'Remove tag team' }).click();
    await expect.poll(() => tags.count()).toBe(0);

    await page.getByRole('button', { name: 'Make public' }).click();
    const url = page.getByLabel('Permanent URL');
    await expect.poll(() => url.isVisible()).toBe(true);
    const permanent = await url.inputValue();
    expect(permanent.startsWith(suite.origin)).toBe(true);
    expect((await fetch(permanent)).status).toBe(200);
    expect(await axe(page), 'file panel').toEqual([]);
    await page.getByRole('button', { name: 'Make private' }).click();
    await expect.poll(() => url.count()).toBe(0);

    await page.getByRole('button', { name: 'Delete file' }).click();
    await page.getByRole('button', { name: 'Yes, delete this file' }).click();
    await expect.poll(() => page.url()).toBe(`${suite.origin}/console/bots/${suite.t.botId}/files`);
    await page.getByLabel('Search by name').fill('guide.pdf');
    await expect.poll(() => page.getByText('No file matches these filters.').isVisible()).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);

  it('at 390 px (dark) the knowledge, files and file pages hold, and axe finds nothing', async () => {
    const { page, problems } = await suite.signedInPage(390, 'dark');
    const bot = `${suite.origin}/console/bots/${suite.t.botId}`;
    await page.goto(`${bot}/knowledge`);
    await page.getByRole('link', { name: 'Staff handbook' }).click();
    await expect.poll(() => linkedRow(page, 'handbook.md').isVisible()).toBe(true);
    expect(await overflows(page), 'knowledge base').toBe(false);
    expect(await axe(page), 'knowledge base, dark').toEqual([]);
    await page.goto(`${bot}/files`);
    await expect.poll(() => page.getByRole('table', { name: 'Files' }).isVisible()).toBe(true);
    expect(await overflows(page), 'files').toBe(false);
    expect(await axe(page), 'files, dark').toEqual([]);
    await page.getByRole('table', { name: 'Files' }).getByRole('link').first().click();
    await expect.poll(() => page.getByRole('heading', { name: 'Details' }).isVisible()).toBe(true);
    expect(await overflows(page), 'file panel').toBe(false);
    await page.screenshot({ path: artifact('console-file-390.png'), fullPage: true });
    expect(await axe(page), 'file panel, dark').toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);

  it('a viewer sees knowledge bases and files but is offered no upload, change or deletion', async () => {
    const { email, password } = await suite.joinAs('viewer');
    const { page, problems } = await suite.newPage(1280, 'light');
    await page.goto(`${suite.origin}/console/`);
    await suite.signIn(page, password, email);
    await page.getByRole('heading', { name: 'Bots' }).waitFor();
    const bot = `${suite.origin}/console/bots/${suite.t.botId}`;
    await page.goto(`${bot}/knowledge`);
    await expect.poll(() => page.getByRole('link', { name: 'Staff handbook' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Knowledge base name').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Rename|Delete)/ }).count()).toBe(0);
    await page.getByRole('link', { name: 'Staff handbook' }).click();
    await expect.poll(() => linkedRow(page, 'broken.docx').textContent()).toContain('could not be read');
    expect(await page.getByLabel('Choose files').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Re-index/ }).count()).toBe(0);
    await linkedRow(page, 'handbook.md').getByRole('link').click();
    await expect.poll(() => page.getByRole('heading', { name: 'Details' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Download' }).isVisible()).toBe(true);
    for (const name of ['Delete file', 'Make public', 'Add tag', 'Re-index']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('31 files at once: the uploads fold into one line, the unreadable one listed in words, counts and size shown', async () => {
    const { page, problems } = await suite.signedInPage(1280, 'light');
    const bot = `/console/bots/${suite.t.botId}`;
    await page.goto(`${suite.origin}${bot}/knowledge`);
    await page.getByLabel('Knowledge base name').fill('Many notes');
    await page.getByRole('button', { name: 'Create knowledge base' }).click();
    await page.getByRole('heading', { name: 'Drop PDFs, Word or Markdown files here' }).waitFor();
    const notes = Array.from({ length: 30 }, (_, i) => ({
      name: `note-${String(i).padStart(2, '0')}.md`,
      mimeType: 'text/markdown',
      buffer: Buffer.from(`# Note ${i}\n\nThe meeting room ${i} has ${i + 2} chairs.`),
    }));
    const program = {
      name: 'tool.exe',
      mimeType: 'application/x-msdownload',
      buffer: Buffer.alloc(512, 0x4d),
    };
    await page.getByLabel('Choose files').setInputFiles([...notes, program]);

    const summary = page.locator('.upload-summary');
    await expect.poll(() => summary.textContent(), INDEXING).toBe('31 uploaded · 30 indexed · 1 failed');
    const uploads = page.getByRole('region', { name: 'Uploads' });
    // One line and one failure, not 31 rows: the card stays short and the files list right under it.
    expect((await uploads.boundingBox())?.height).toBeLessThan(320);
    const failure = await page.getByRole('list', { name: 'Failed uploads' }).textContent();
    expect(failure).toContain('tool.exeIndexing failed: This kind of file cannot be read.');
    expect(failure).toContain('Save it as PDF, Word, Markdown');
    expect(failure).not.toContain('unsupported_format');
    const program_ = linkedRow(page, 'tool.exe');
    expect(await program_.textContent()).toContain('This kind of file cannot be read.');
    expect(await program_.getByRole('button', { name: /^Re-index/ }).count()).toBe(0);
    const size = notes.reduce((n, f) => n + f.buffer.length, 0) + program.buffer.length;
    // Decimal units, one decimal under 10 (as on every Console page).
    const shownSize =
      size < 10_000 ? `${(size / 1000).toFixed(1).replace(/\.0$/, '')} KB` : `${Math.round(size / 1000)} KB`;
    await expect
      .poll(() => page.getByText(`31 files · 30 indexed · 1 failed · ${shownSize}`).isVisible())
      .toBe(true);
    expect(await axe(page), 'uploads folded').toEqual([]);
    await page.screenshot({ path: artifact('console-uploads-folded-1280.png'), fullPage: true });

    // The Knowledge tab counts what all the knowledge bases hold.
    await page.getByRole('link', { name: '← Knowledge bases' }).click();
    const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Many notes' }) });
    await expect.poll(() => row.textContent()).toContain(`31 files · 30 indexed · 1 failed · ${shownSize}`);
    expect(await page.locator('.page-head .muted').first().textContent()).toMatch(
      /^\d+ knowledge bases · \d+ files · [\d.]+ (KB|MB)$/,
    );
    expect(problems).toEqual([]);
  }, 180_000);
});

// The Website tab (issue #36): a site served by the test on 127.0.0.1 (the server allows crawling it), each docs
// page held back 400 ms so the crawl can be watched and stopped.
describe.skipIf(!chromiumHere)('console knowledge: the Website tab in a browser', () => {
  const site = testSite({ pages: 8, pageDelayMs: 400 });
  let base = '';
  const suite = useConsoleSuite({ workers: true, env: { PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  // Each case its own run of the site, its pages held back 400 ms until the case lets them go.
  beforeEach(async () => {
    site.setPageDelay(400);
    base = await site.start();
  });
  afterEach(() => site.stop());

  it('adds a site, shows the crawl live, stops it, syncs it again to the end with skipped reasons and runs', async () => {
    const { page, problems, tabs } = await websiteTab(suite, 'Help centre');
    await expect.poll(() => page.getByText('No website yet.').isVisible()).toBe(true);
    await page.getByLabel('Website URL').fill(`${base}/`);
    await page.getByLabel('Leave out paths (optional)').fill('/docs/p2');
    await page.getByLabel('Pages at most').fill('50');
    // This server does not render pages by JavaScript: no such checkbox is offered.
    expect(await page.getByLabel(/Render pages by JavaScript/).count()).toBe(0);
    await page.getByRole('button', { name: 'Add website' }).click();

    const row = page.getByRole('listitem', { name: `${base}/` });
    // Live: the counts move while it crawls, without a reload.
    await expect.poll(() => row.textContent()).toMatch(/Crawling · \d+ pages?/);
    // The first page fetched after robots.txt and the sitemap: as long as the crawl takes on a loaded machine.
    await expect.poll(() => row.textContent(), INDEXING).toMatch(/Fetched [1-9]/);
    expect(await axe(page), 'website tab, crawling').toEqual([]);
    await row.getByRole('button', { name: 'Stop' }).click();
    await expect
      .poll(() => row.getByRole('list', { name: 'Last runs' }).textContent(), INDEXING)
      .toContain(': stopped');
    // Nothing more is watched before the end of the next run: its pages need not be held back.
    site.setPageDelay(0);

    await row.getByRole('button', { name: 'Sync now' }).click();
    await expect
      .poll(
        () => row.getByRole('list', { name: 'Last runs' }).getByRole('listitem').first().textContent(),
        INDEXING,
      )
      .toContain(': completed');
    // Home, 7 docs pages (p2 left out), the moved page and the PDF.
    await expect.poll(() => row.textContent()).toContain('Idle · 10 pages');
    await row.getByText(/^Skipped pages/).click();
    const skipped = await row.getByRole('list', { name: 'Skipped pages' }).textContent();
    expect(skipped).toContain(`${base}/private/secret — robots`);
    expect(skipped).toContain(`${base}/docs/p2 — excluded`);
    expect(skipped).toContain(`${base}/missing — http_404`);
    expect(await row.getByRole('list', { name: 'Last runs' }).getByRole('listitem').count()).toBe(2);
    expect(await axe(page), 'website tab, done').toEqual([]);

    // The pages are files of the knowledge base, on the Files tab.
    await tabs.getByRole('link', { name: 'Files' }).click();
    const host = new URL(base).host;
    await expect.poll(() => linkedRow(page, `web/${host}/docs/p5`).isVisible(), INDEXING).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);

  it('adds a site crawled again at the times of a cron expression, and shows the refusal of one it cannot read', async () => {
    site.setPageDelay(0);
    const { page, problems, knowledgeBaseId } = await websiteTab(suite, 'Release notes');
    await expect.poll(() => page.getByText('No website yet.').isVisible()).toBe(true);
    const crawlAgain = page.getByLabel('Crawl again');
    expect(await crawlAgain.inputValue()).toBe('off');
    // The expression's field is offered only for a cron schedule.
    expect(await page.getByLabel('Cron expression (UTC)').count()).toBe(0);

    // Minute 61 does not exist: the server's message shows, and no site is added.
    await page.getByLabel('Website URL').fill(`${base}/`);
    await page.getByLabel('Pages at most').fill('1');
    expect(await page.getByLabel('Links followed from the start page').inputValue()).toBe('10');
    await page.getByLabel('Links followed from the start page').fill('2');
    await crawlAgain.selectOption({ label: 'At times of a cron expression (UTC)' });
    const cron = page.getByLabel('Cron expression (UTC)');
    expect(await page.getByText(/minute, hour, day of the month, month, day of the week/).isVisible()).toBe(
      true,
    );
    expect(await axe(page), 'website tab, cron expression offered').toEqual([]);
    await cron.fill('61 * * * *');
    await page.getByRole('button', { name: 'Add website' }).click();
    const form = page.getByRole('form', { name: 'Add a website' });
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('schedule: "61 * * * *"');
    expect(await page.getByText('No website yet.').isVisible()).toBe(true);
    const listed = await botApi(suite.origin, suite.t)(
      'GET',
      `/v1/files/knowledge-bases/${knowledgeBaseId}/sources`,
    );
    expect(listed.sources).toEqual([]);

    // Mondays at 03:00 UTC: added, the row says so and when it next runs.
    await cron.fill('0 3 * * 1');
    await page.getByRole('button', { name: 'Add website' }).click();
    const row = page.getByRole('listitem', { name: `${base}/` });
    await expect.poll(() => row.textContent()).toContain('synced at 0 3 * * 1 (cron, UTC)');
    // The next crawl is the next Monday 03:00 UTC, as the Console writes a time (in the browser's zone).
    const [source] = (
      (await botApi(suite.origin, suite.t)(
        'GET',
        `/v1/files/knowledge-bases/${knowledgeBaseId}/sources`,
      )) as {
        sources: { schedule: string; maxDepth: number; nextSyncAt?: string }[];
      }
    ).sources;
    expect(source?.schedule).toBe('0 3 * * 1');
    expect(source?.maxDepth).toBe(2);
    const next = new Date(source?.nextSyncAt ?? '');
    expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 3, 0]);
    const shown = await page.evaluate<string>(
      `new Intl.DateTimeFormat(navigator.languages[0], { dateStyle: 'medium', timeStyle: 'short' })` +
        `.format(new Date(${JSON.stringify(next.toISOString())}))`,
    );
    await expect.poll(() => row.textContent()).toContain(`next crawl ${shown}`);
    expect(await form.getByRole('alert').count()).toBe(0);
    // The form is ready for the next site: no schedule, no expression.
    expect(await crawlAgain.inputValue()).toBe('off');
    expect(await page.getByLabel('Cron expression (UTC)').count()).toBe(0);
    await expect
      .poll(() => row.getByRole('list', { name: 'Last runs' }).textContent(), INDEXING)
      .toContain(': completed');
    expect(await axe(page), 'website tab, cron schedule').toEqual([]);
    // The one refusal the browser logs is the invalid cron's.
    expect(problems).toEqual([expect.stringContaining('status of 400')]);
  }, 120_000);

  it("changes a site's schedule to a cron and its page limit in place, and shows the refusal of a cron it cannot read", async () => {
    site.setPageDelay(0);
    const { page, problems, knowledgeBaseId } = await websiteTab(suite, 'Support articles');
    const api = botApi(suite.origin, suite.t);
    await page.getByLabel('Website URL').fill(`${base}/`);
    await page.getByLabel('Pages at most').fill('1');
    await page.getByRole('button', { name: 'Add website' }).click();
    const row = page.getByRole('listitem', { name: `${base}/` });
    await expect
      .poll(() => row.getByRole('list', { name: 'Last runs' }).textContent(), INDEXING)
      .toContain(': completed');
    expect(await row.textContent()).not.toContain('synced');

    // The form holds the site's settings as they are; Save waits for a change.
    await row.getByRole('button', { name: 'Change settings' }).click();
    const form = row.getByRole('form', { name: `Settings of ${base}/` });
    const save = form.getByRole('button', { name: 'Save settings' });
    expect(await form.getByLabel('Pages at most').inputValue()).toBe('1');
    expect(await form.getByLabel('Links followed from the start page').inputValue()).toBe('10');
    expect(await form.getByLabel('Also crawl its subdomains').isChecked()).toBe(false);
    expect(await form.getByLabel('Crawl again').inputValue()).toBe('off');
    expect(await form.getByLabel('Cron expression (UTC)').count()).toBe(0);
    expect(await save.isDisabled()).toBe(true);

    // Mondays at 03:00 UTC, 2 pages at most: the row says so and when it next runs, the API has both.
    await form.getByLabel('Crawl again').selectOption({ label: 'At times of a cron expression (UTC)' });
    await form.getByLabel('Cron expression (UTC)').fill('0 3 * * 1');
    await form.getByLabel('Pages at most').fill('2');
    await form.getByLabel('Links followed from the start page').fill('3');
    await form.getByLabel('Also crawl its subdomains').check();
    expect(await axe(page), 'website tab, settings form').toEqual([]);
    await save.click();
    await expect.poll(() => row.textContent()).toContain('synced at 0 3 * * 1 (cron, UTC)');
    await expect.poll(() => form.count()).toBe(0);
    const sourceUrl = async () => {
      const { sources } = (await api('GET', `/v1/files/knowledge-bases/${knowledgeBaseId}/sources`)) as {
        sources: { id: string }[];
      };
      return `/v1/files/knowledge-bases/${knowledgeBaseId}/sources/${sources[0]?.id}`;
    };
    const url = await sourceUrl();
    const changed = (
      (await api('GET', url)) as {
        source: {
          schedule: string;
          maxPages: number;
          maxDepth: number;
          subdomains: boolean;
          nextSyncAt?: string;
        };
      }
    ).source;
    expect([changed.schedule, changed.maxPages, changed.maxDepth, changed.subdomains]).toEqual([
      '0 3 * * 1',
      2,
      3,
      true,
    ]);
    const next = new Date(changed.nextSyncAt ?? '');
    expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 3, 0]);
    const shown = await page.evaluate<string>(
      `new Intl.DateTimeFormat(navigator.languages[0], { dateStyle: 'medium', timeStyle: 'short' })` +
        `.format(new Date(${JSON.stringify(next.toISOString())}))`,
    );
    await expect.poll(() => row.textContent()).toContain(`next crawl ${shown}`);

    // Minute 61 does not exist: the server's message shows in the form, and the site keeps its settings.
    await row.getByRole('button', { name: 'Change settings' }).click();
    expect(await form.getByLabel('Cron expression (UTC)').inputValue()).toBe('0 3 * * 1');
    expect(await form.getByLabel('Pages at most').inputValue()).toBe('2');
    await form.getByLabel('Cron expression (UTC)').fill('61 * * * *');
    await save.click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('schedule: "61 * * * *"');
    expect(await row.textContent()).toContain('synced at 0 3 * * 1 (cron, UTC)');
    expect((await api('GET', url)) as { source: unknown }).toEqual({ source: changed });
    expect(await axe(page), 'website tab, settings refused').toEqual([]);
    await form.getByRole('button', { name: 'Cancel' }).click();
    expect(await form.count()).toBe(0);
    // The keyboard is back on the button that opened the form, which says the form is closed.
    const edit = row.getByRole('button', { name: 'Change settings' });
    expect(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).toBe(
      `Change settings ${base}/`,
    );
    expect(await edit.getAttribute('aria-expanded')).toBe('false');
    // The one refusal the browser logs is the invalid cron's.
    expect(problems).toEqual([expect.stringContaining('status of 400')]);
  }, 120_000);
});

// Pages rendered by JavaScript (issue #36, item 5): where the server renders them, the checkbox is offered and the
// source it adds is rendered (its page's script fetched its JSON from the site).
describe.skipIf(!chromiumHere)('console knowledge: a website rendered by JavaScript', () => {
  const site = testSite({
    pages: 1,
    extra: {
      '/help/scripted': {
        title: 'Scripted help',
        body: `<p>Loading the answer about delivery times for orders.</p><div id="a"></div>
<script>fetch('/help/answer.json').then((r) => r.json()).then((a) => { document.getElementById('a').textContent = a.text; });</script>`,
      },
    },
    files: {
      '/help/answer.json': {
        contentType: 'application/json',
        body: '{"text":"Parcels arrive in four days."}',
      },
    },
  });
  const suite = useConsoleSuite({
    workers: true,
    env: {
      PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: 'true',
      PARLEY_CRAWL_RENDER_JS: 'true',
      PARLEY_CRAWL_CHROMIUM_PATH: CHROMIUM,
    },
  });

  it('offers "Render pages by JavaScript" and the site added with it is rendered', async () => {
    const base = await site.start();
    try {
      const { page, problems } = await websiteTab(suite, 'Scripted');
      await page.getByLabel('Website URL').fill(`${base}/help/scripted`);
      await page.getByLabel('Pages at most').fill('1');
      await page.getByLabel(/Render pages by JavaScript/).check();
      await page.getByRole('button', { name: 'Add website' }).click();
      const row = page.getByRole('listitem', { name: `${base}/help/scripted` });
      await expect.poll(() => row.textContent()).toContain('rendered by JavaScript');
      await expect
        .poll(() => row.getByRole('list', { name: 'Last runs' }).textContent(), INDEXING)
        .toContain(': completed');
      expect(site.requests.some((r) => r.startsWith('/help/answer.json '))).toBe(true);
      expect(await axe(page), 'website tab, rendering offered').toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await site.stop();
    }
  }, 120_000);
});
