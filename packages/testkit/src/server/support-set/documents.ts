// The support set's documents (issue 13): a fictional company's knowledge base in several formats. The text
// lives in files beside this module; the PDF manual and the Word security policy are drawn from their JSON
// text at test time with pdf-lib and docx, as people's own files would be.
import { readFileSync } from 'node:fs';

/** A document of the support set: the file key it is uploaded as and its bytes. */
export interface SupportDocument {
  key: SupportKey;
  bytes: Buffer;
}

/** The keys of the support set's documents. */
export type SupportKey =
  | 'handbook.md'
  | 'faq.txt'
  | 'manual.pdf'
  | 'prices.csv'
  | 'security-policy.docx'
  | 'terms.html';

/** A titled document of headed parts (a page of the manual, a section of the policy), paragraphs under each. */
interface Sectioned {
  title: string;
  parts: Array<{ heading: string; paragraphs: string[] }>;
}

const here = (name: string) => new URL(`./${name}`, import.meta.url);
const text = (name: string) => readFileSync(here(name), 'utf8');

function manualText(): Sectioned {
  const json = JSON.parse(text('manual.json')) as { title: string; pages: Sectioned['parts'] };
  return { title: json.title, parts: json.pages };
}

function securityText(): Sectioned {
  const json = JSON.parse(text('security.json')) as { title: string; sections: Sectioned['parts'] };
  return { title: json.title, parts: json.sections };
}

/**
 * A PDF of one page per part: the document's title (22 pt, first page only), the part's heading (17 pt) and
 * its paragraphs in 11-pt lines wrapped to the page, a blank line between paragraphs. The title is also the
 * PDF's metadata title.
 */
export async function sectionedPdf(doc: Sectioned): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  pdf.setTitle(doc.title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const width = 500;
  const wrap = (paragraph: string, size: number): string[] => {
    const lines: string[] = [];
    let line = '';
    for (const word of paragraph.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word;
      if (line && font.widthOfTextAtSize(next, size) > width) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    if (line) lines.push(line);
    return lines;
  };
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
      for (const line of wrap(paragraph, 11)) {
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

/**
 * The support set: a customer handbook (Markdown, ## sections), an FAQ (plain text), a product manual (PDF,
 * one page per topic), a price list (CSV), a security policy (DOCX) and long terms of service (HTML, about
 * 3,200 words full of "refund", "payment" and "data" that answer none of the questions).
 */
export async function supportDocuments(): Promise<SupportDocument[]> {
  return [
    { key: 'handbook.md', bytes: Buffer.from(text('handbook.md')) },
    { key: 'faq.txt', bytes: Buffer.from(text('faq.txt')) },
    { key: 'manual.pdf', bytes: await sectionedPdf(manualText()) },
    { key: 'prices.csv', bytes: Buffer.from(text('prices.csv')) },
    { key: 'security-policy.docx', bytes: await sectionedDocx(securityText()) },
    { key: 'terms.html', bytes: Buffer.from(text('terms.html')) },
  ];
}
