import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { failureOf } from '../../../../../testkit/src/server/extract-fixtures.js';
import { ExtractionError } from '../../types.js';
import { extractDocument } from './extract-document.js';

interface PageSpec {
  heading?: string;
  lines: string[];
}

/** A PDF drawn with pdf-lib: per page an optional 24-pt heading, then 12-pt lines (blank string = gap). */
async function makePdf(pages: PageSpec[], title?: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const page = doc.addPage([600, 800]);
    let y = 740;
    if (spec.heading) {
      page.drawText(spec.heading, { x: 50, y, size: 24, font });
      y -= 40;
    }
    for (const line of spec.lines) {
      if (line !== '') page.drawText(line, { x: 50, y, size: 12, font });
      y -= line === '' ? 20 : 14;
    }
  }
  if (title) doc.setTitle(title);
  return Buffer.from(await doc.save());
}

const PAGES: PageSpec[] = [
  { heading: 'Apples', lines: ['Apples grow on trees in orchards.', 'They ripen in the autumn.'] },
  {
    heading: 'Bananas',
    lines: ['Bananas grow in tropical climates.', '', 'Plantains are cooked before eating.'],
  },
  { lines: ['Cherries are small stone fruits.'] },
];

describe('PDF extraction', () => {
  it('keeps the page number of every block and counts the pages', async () => {
    const document = await extractDocument(await makePdf(PAGES), 'application/pdf', 'fruit.pdf');
    expect(document.pageCount).toBe(3);
    expect(document.blocks.every((block) => block.pageNumber !== undefined)).toBe(true);
    const text = (page: number) =>
      document.blocks
        .filter((block) => block.pageNumber === page)
        .map((block) => block.text)
        .join(' ');
    expect(text(1)).toContain('Apples grow on trees in orchards.');
    expect(text(1)).not.toContain('Bananas');
    expect(text(2)).toContain('Plantains are cooked before eating.');
    expect(text(3)).toBe('Cherries are small stone fruits.');
  });

  it('reads larger text as headings and joins wrapped lines into one paragraph', async () => {
    const document = await extractDocument(await makePdf(PAGES), 'application/pdf', 'fruit.pdf');
    expect(document.blocks.slice(0, 2)).toEqual([
      { type: 'title', text: 'Apples', level: 1, pageNumber: 1 },
      {
        type: 'paragraph',
        text: 'Apples grow on trees in orchards. They ripen in the autumn.',
        pageNumber: 1,
      },
    ]);
    const page2 = document.blocks.filter((block) => block.pageNumber === 2).map((block) => block.type);
    expect(page2).toEqual(['title', 'paragraph', 'paragraph']);
  });

  it('joins a word hyphenated across lines and reads bullet lines as list items', async () => {
    const pdf = await makePdf([
      { lines: ['Fruit such as apples are exam-', 'ples of pomes.', '', '• First point', '• Second point'] },
    ]);
    const document = await extractDocument(pdf, 'application/pdf', 'list.pdf');
    expect(document.blocks.map(({ type, text }) => ({ type, text }))).toEqual([
      { type: 'paragraph', text: 'Fruit such as apples are examples of pomes.' },
      { type: 'list', text: '• First point' },
      { type: 'list', text: '• Second point' },
    ]);
  });

  it('joins a sentence cut at a line break back together, with double line spacing and over a page break', async () => {
    // Lines 24 pt apart (double spacing at 12 pt): line spacing alone puts every line in a paragraph of its own.
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const pages = [
      [
        'To make a claim, write to care@brewline.example with a short description of the fault, the',
        'serial number from the label under the drip tray, and proof of purchase (receipt or invoice) and the',
        'order number if you bought from us directly.',
        'Claims are answered within two working days.',
        'Repairs usually take 10 working days from the day the machine reaches our workshop, and we',
      ],
      [
        'lend you a replacement machine while yours is in the workshop.',
        'Contact',
        'Write to us at any time.',
      ],
    ];
    for (const lines of pages) {
      const page = doc.addPage([600, 800]);
      lines.forEach((line, i) => {
        page.drawText(line, { x: 40, y: 740 - 24 * i, size: 12, font });
      });
    }
    const document = await extractDocument(Buffer.from(await doc.save()), 'application/pdf', 'warranty.pdf');
    expect(document.blocks.map((block) => `${block.pageNumber}: ${block.text}`)).toEqual([
      '1: To make a claim, write to care@brewline.example with a short description of the fault, the serial ' +
        'number from the label under the drip tray, and proof of purchase (receipt or invoice) and the order ' +
        'number if you bought from us directly.',
      '1: Claims are answered within two working days.',
      '1: Repairs usually take 10 working days from the day the machine reaches our workshop, and we lend you ' +
        'a replacement machine while yours is in the workshop.',
      '2: Contact',
      '2: Write to us at any time.',
    ]);
  });

  it("drops running headers and page numbers, but keeps the first page's header text", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let i = 1; i <= 4; i++) {
      const page = doc.addPage([600, 800]);
      page.drawText('ACME Field Manual', { x: 50, y: 770, size: 9, font });
      page.drawText(`Body text of page ${i}.`, { x: 50, y: 700, size: 12, font });
      page.drawText(`Section ${i} continues here.`, { x: 50, y: 660, size: 12, font });
      page.drawText(String(i), { x: 300, y: 30, size: 9, font });
    }
    const document = await extractDocument(Buffer.from(await doc.save()), 'application/pdf', 'manual.pdf');
    expect(document.blocks.map((block) => `${block.pageNumber}: ${block.text}`)).toEqual([
      '1: ACME Field Manual',
      '1: Body text of page 1.',
      '1: Section 1 continues here.',
      '2: Body text of page 2.',
      '2: Section 2 continues here.',
      '3: Body text of page 3.',
      '3: Section 3 continues here.',
      '4: Body text of page 4.',
      '4: Section 4 continues here.',
    ]);
  });

  it('takes the document title from the metadata, else the first title', async () => {
    expect(
      (await extractDocument(await makePdf(PAGES, 'Fruit Guide'), 'application/pdf', 'a.pdf')).title,
    ).toBe('Fruit Guide');
    expect((await extractDocument(await makePdf(PAGES), 'application/pdf', 'a.pdf')).title).toBe('Apples');
  });

  it('fails unreadable_document for a truncated PDF', async () => {
    const pdf = await makePdf(PAGES);
    const truncated = pdf.subarray(0, Math.floor(pdf.length / 2));
    const error = await failureOf(extractDocument(truncated, 'application/pdf', 'broken.pdf'));
    expect(error).toBeInstanceOf(ExtractionError);
    expect(error).toMatchObject({ code: 'unreadable_document' });
    expect((error as Error).message).toContain('"broken.pdf" could not be read as PDF');
  });

  it('fails empty_document for a PDF without a text layer', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([600, 800]).drawRectangle({ x: 10, y: 10, width: 100, height: 100 });
    const error = await failureOf(
      extractDocument(Buffer.from(await doc.save()), 'application/pdf', 'scan.pdf'),
    );
    expect(error).toMatchObject({ code: 'empty_document' });
    expect((error as Error).message).toMatch(/scanned PDF/);
  });

  it('fails too_large past the page limit', async () => {
    const long = extractDocument(await makePdf(PAGES), 'application/pdf', 'long.pdf', { maxPages: 2 });
    const error = await failureOf(long);
    expect(error).toMatchObject({ code: 'too_large' });
    expect((error as Error).message).toContain('pages');
  });

  it('stops with the signal reason when the caller aborts', async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    controller.abort(reason);
    await expect(
      extractDocument(await makePdf(PAGES), 'application/pdf', 'a.pdf', { signal: controller.signal }),
    ).rejects.toBe(reason);
  });
});
