import type { PDFFont, PDFPage } from 'pdf-lib';

/* Titled documents of headed parts drawn into a PDF or a Word file, as people's own files would be: the
 * support set's manual and security policy (tests) and the benchmarks' visitor-set documents. */

/** A titled document of headed parts, drawn into a PDF or a DOCX. */
export interface Sectioned {
  title: string;
  parts: Array<{ heading: string; paragraphs: string[] }>;
}

/** Words of `text` (split on white space) laid out in lines no wider than `width` points at `size`. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (!word) continue;
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** The fonts a {@link letterPdf} page is drawn with. */
export interface PdfFonts {
  body: PDFFont;
  bold: PDFFont;
}

/**
 * A PDF of `pages` Letter pages (612 × 792 pt; Helvetica, Helvetica Bold), each drawn by `draw` from y 730 down and
 * numbered at its foot (9 pt); `title`, when given, is its metadata title (the benchmarks' generated documents).
 */
export async function letterPdf(
  pages: number,
  draw: (page: PDFPage, fonts: PdfFonts) => void,
  title?: string,
): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const fonts = {
    body: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
  };
  if (title !== undefined) pdf.setTitle(title);
  for (let n = 1; n <= pages; n++) {
    const page = pdf.addPage([612, 792]);
    draw(page, fonts);
    page.drawText(String(n), { x: 300, y: 40, size: 9, font: fonts.body });
  }
  return Buffer.from(await pdf.save());
}

/**
 * `text` in 11-pt lines wrapped in a {@link letterPdf} page's 492-pt column (x 60), from `y` down, stopping above
 * the foot (y 80). Answers the y below the last line drawn.
 */
export function drawParagraph(page: PDFPage, text: string, font: PDFFont, y: number): number {
  let at = y;
  for (const line of wrap(text, font, 11, 492)) {
    if (at < 80) break;
    page.drawText(line, { x: 60, y: at, size: 11, font });
    at -= 14;
  }
  return at;
}

/**
 * A PDF of one page per part: the title (22 pt, first page only, also the PDF's metadata title), the part's
 * heading (17 pt) and its paragraphs in 11-pt lines wrapped at 500 pt, a blank line between paragraphs. Dated
 * at a fixed instant, so the same source makes the same bytes.
 */
export async function sectionedPdf(doc: Sectioned): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const fixed = new Date('2026-01-01T00:00:00Z');
  pdf.setTitle(doc.title);
  pdf.setCreationDate(fixed);
  pdf.setModificationDate(fixed);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  doc.parts.forEach((part, i) => {
    const page = pdf.addPage([600, 800]);
    let y = 740;
    if (i === 0) {
      page.drawText(doc.title, { x: 50, y, size: 22, font: bold });
      y -= 44;
    }
    page.drawText(part.heading, { x: 50, y, size: 17, font: bold });
    y -= 32;
    for (const paragraph of part.paragraphs) {
      for (const line of wrap(paragraph, font, 11, 500)) {
        page.drawText(line, { x: 50, y, size: 11, font });
        y -= 15;
      }
      y -= 15;
    }
  });
  return Buffer.from(await pdf.save());
}

/** A Word document: the title in Word's Title style, each part a Heading 1 and its paragraphs. */
export async function sectionedDocx(doc: Sectioned): Promise<Buffer> {
  const { Document, HeadingLevel, Packer, Paragraph } = await import('docx');
  const children = [
    new Paragraph({ text: doc.title, heading: HeadingLevel.TITLE }),
    ...doc.parts.flatMap((part) => [
      new Paragraph({ text: part.heading, heading: HeadingLevel.HEADING_1 }),
      ...part.paragraphs.map((p) => new Paragraph(p)),
    ]),
  ];
  return Buffer.from(await Packer.toBuffer(new Document({ title: doc.title, sections: [{ children }] })));
}
