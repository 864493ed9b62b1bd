import mammoth from 'mammoth';
import type { ExtractedDocument } from '../types.js';
import { extractHtml } from './html.js';
import { type ExtractContext, raceAbort, unreadable } from './options.js';
import { coreTitle } from './xml.js';
import { checkZip, readZipTexts } from './zip.js';

/** Class mammoth gives the `h1` of Word's "Title" style, so that headings below it move one level down. */
const TITLE_CLASS = 'docx-title';

const STYLE_MAP = [
  `p[style-name='Title'] => h1.${TITLE_CLASS}:fresh`,
  "p[style-name='Quote'] => blockquote > p:fresh",
  "p[style-name='Intense Quote'] => blockquote > p:fresh",
];

/** Images are not indexed: mammoth is told to write no image data (its default inlines them as base64). */
const NO_IMAGES = mammoth.images.imgElement(async () => ({ src: '' }));

/**
 * A Word (.docx) document through mammoth's HTML, which keeps headings, lists and tables, then the HTML
 * extractor. Word's "Title" style is the level-1 title; Heading 1–5 become subtitles of levels 2–6 when a
 * Title exists, else Heading 1 is a title. The document title is the file's core title, else the Title text.
 */
export async function extractDocx(bytes: Buffer, ctx: ExtractContext): Promise<ExtractedDocument> {
  const names = checkZip(bytes, ctx, 'DOCX');
  if (!names.includes('word/document.xml')) {
    throw unreadable(ctx.key, 'DOCX', 'no word/document.xml part');
  }
  const result = await raceAbort(
    mammoth.convertToHtml(
      { buffer: bytes },
      { styleMap: STYLE_MAP, convertImage: NO_IMAGES, externalFileAccess: false },
    ),
    ctx.signal,
  );
  const document = extractHtml(result.value, { titleClass: TITLE_CLASS });
  // mammoth ends each footnote with a "↑" link back to its reference.
  for (const block of document.blocks) block.text = block.text.replace(/\s*↑$/, '');
  const title =
    coreTitle(
      readZipTexts(bytes, ctx, 'DOCX', (name) => name === 'docProps/core.xml').get('docProps/core.xml'),
    ) ?? document.blocks.find((block) => block.type === 'title')?.text;
  if (title !== undefined) document.title = title;
  else delete document.title;
  return document;
}
