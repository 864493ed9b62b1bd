// The visitor set's knowledge bases (issue 33): four fictional businesses of different trades, each a folder
// of its documents' sources beside this module. Markdown, FAQ text and CSV are uploaded as they are; a
// `<name>.pdf.json` or `<name>.docx.json` (a title and headed parts of paragraphs) is drawn into `<name>.pdf`
// (one page per part, 11-pt lines hard-wrapped at the page width, as a word processor's export is) or
// `<name>.docx` (Word's Title and Heading 1 styles), deterministically, with pdf-lib and docx.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Sectioned, sectionedDocx, sectionedPdf } from '../../packages/testkit/src/shared/sectioned.js';

/** The knowledge bases: a coffee-equipment shop, a SaaS product, an employee handbook and a device manual. */
export const KNOWLEDGE_BASES = ['shop', 'saas', 'handbook', 'device'] as const;
/** A knowledge base's name (its folder). */
export type KnowledgeBaseName = (typeof KNOWLEDGE_BASES)[number];

/** What a knowledge base is, as its bot would be described. */
export const KNOWLEDGE_BASE_TITLES: Record<KnowledgeBaseName, string> = {
  shop: 'Brewline, a coffee-equipment shop',
  saas: 'Tallyboard, a time-tracking SaaS product',
  handbook: 'Kestrel Analytics, an employee handbook',
  device: 'Aerlo P3, an air purifier’s manual',
};

/** A document's format, as uploaded. */
export type DocumentFormat = 'markdown' | 'faq' | 'csv' | 'pdf' | 'docx';

/** A document of a knowledge base, before its bytes are drawn. */
export interface VisitorDocument {
  /** Its knowledge base: a KnowledgeBaseName, or a language set's language (bench/language-sets). */
  kb: string;
  /** The file key it is uploaded as (`returns-and-refunds.md`, `warranty.pdf`…). */
  key: string;
  format: DocumentFormat;
  contentType: string;
  /** Its text as written: what expected facts and wording are checked against. */
  text: string;
  /** Its title and headings (Markdown `#` lines, the PDF's or DOCX's title and part headings, an FAQ's first
   * line and each entry's first line, a CSV's title from its key): the topics a question can belong to. */
  headings: string[];
  /** The sectioned source of a PDF or DOCX. */
  sectioned?: Sectioned;
}

/** The folder holding the knowledge bases' sources, from this module or its compiled copy in bench/dist. */
export function sourceRoot(): string {
  for (const up of ['./', '../../../visitor-set/']) {
    const dir = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(`${dir}shop`)) return dir;
  }
  throw new Error('cannot find bench/visitor-set from the benchmark file');
}

const CONTENT_TYPES: Record<DocumentFormat, string> = {
  markdown: 'text/markdown',
  faq: 'text/plain',
  csv: 'text/csv',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** A CSV's title: its key's words, capitalised (`price-list.csv` → `Price list`). */
const titleOfKey = (key: string) => {
  const words = key.replace(/\.[a-z]+$/, '').replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** An FAQ's title (its first line) and its entries' questions (the first line of each later block). */
function faqHeadings(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((block) => block.trim().split('\n')[0]?.trim() ?? '')
    .filter(Boolean);
}

/** The document `file` of folder `dir` (ending in `/`), in knowledge base `kb`. */
export function documentOf(kb: string, dir: string, file: string): VisitorDocument {
  const raw = readFileSync(`${dir}${file}`, 'utf8');
  const sectionedFormat = /\.(pdf|docx)\.json$/.exec(file)?.[1] as 'pdf' | 'docx' | undefined;
  if (sectionedFormat) {
    const sectioned = JSON.parse(raw) as Sectioned;
    return {
      kb,
      key: file.replace(/\.json$/, ''),
      format: sectionedFormat,
      contentType: CONTENT_TYPES[sectionedFormat],
      text: [sectioned.title, ...sectioned.parts.flatMap((p) => [p.heading, ...p.paragraphs])].join('\n\n'),
      headings: [sectioned.title, ...sectioned.parts.map((p) => p.heading)],
      sectioned,
    };
  }
  const format: DocumentFormat = file.endsWith('.md') ? 'markdown' : file.endsWith('.csv') ? 'csv' : 'faq';
  const headings =
    format === 'markdown'
      ? raw
          .split('\n')
          .filter((line) => /^#{1,3} /.test(line))
          .map((line) => line.replace(/^#+ /, '').trim())
      : format === 'csv'
        ? [titleOfKey(file)]
        : faqHeadings(raw);
  return { kb, key: file, format, contentType: CONTENT_TYPES[format], text: raw, headings };
}

/** Every document of every knowledge base, in a fixed order (knowledge base, then file name). */
export function visitorDocuments(): VisitorDocument[] {
  const root = sourceRoot();
  return KNOWLEDGE_BASES.flatMap((kb) => folderDocuments(kb, `${root}${kb}/`));
}

/** The documents of a knowledge base's folder (ending in `/`), by file name. */
export function folderDocuments(kb: string, dir: string): VisitorDocument[] {
  return readdirSync(dir)
    .filter((f) => /\.(md|txt|csv|pdf\.json|docx\.json)$/.test(f))
    .sort()
    .map((file) => documentOf(kb, dir, file));
}

/** The bytes a document is uploaded as. */
export async function documentBytes(doc: VisitorDocument): Promise<Buffer> {
  if (doc.format === 'pdf' && doc.sectioned) return sectionedPdf(doc.sectioned);
  if (doc.format === 'docx' && doc.sectioned) return sectionedDocx(doc.sectioned);
  return Buffer.from(doc.text, 'utf8');
}
