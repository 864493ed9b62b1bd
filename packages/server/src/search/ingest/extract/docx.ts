import { strToU8, type Zippable, zipSync } from 'fflate';
import mammoth from 'mammoth';
import type { ExtractedDocument } from '../../types.js';
import { extractHtml } from './html.js';
import { openOfficePackage } from './office-package.js';
import { asExtractionError, type ExtractContext, raceAbort } from './options.js';
import { coreTitle, type XmlBudget } from './xml.js';
import type { ZipArchive } from './zip.js';

/** Class mammoth gives the `h1` of Word's "Title" style, so that headings below it move one level down. */
const TITLE_CLASS = 'docx-title';

const STYLE_MAP = [
  `p[style-name='Title'] => h1.${TITLE_CLASS}:fresh`,
  "p[style-name='Quote'] => blockquote > p:fresh",
  "p[style-name='Intense Quote'] => blockquote > p:fresh",
];

/** Images are not indexed: mammoth is told to write no image data (its default inlines them as base64). */
const NO_IMAGES = mammoth.images.imgElement(async () => ({ src: '' }));

const RELATIONSHIP_TYPES = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';

/** The parts related to the main document that mammoth reads, each found by relationship type. */
const RELATED_PARTS = ['comments', 'endnotes', 'footnotes', 'numbering', 'styles'] as const;

/** mammoth's path of a part: `dir/name` for a relative target, the target itself for an absolute one. */
function joinPath(dir: string, target: string): string {
  const path = target.startsWith('/') || dir === '' ? target : `${dir}/${target}`;
  return path.startsWith('/') ? path.slice(1) : path;
}

function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The `.rels` part of `path` (`word/document.xml` → `word/_rels/document.xml.rels`). */
function relsPath(path: string): string {
  const dir = dirname(path);
  const name = path.slice(path.lastIndexOf('/') + 1);
  return dir === '' ? `_rels/${name}.rels` : `${dir}/_rels/${name}.rels`;
}

/**
 * The parts of a DOCX that mammoth reads, unpacked within the document's byte budget and scanned
 * within its element and depth budgets: the content types, the package and document relationships, the
 * main document (found as mammoth finds it: the `officeDocument` relationship, else `word/document.xml`),
 * its comments, endnotes, footnotes, numbering and styles with their relationships, and mammoth's own
 * embedded style map. Nothing else (images, embeddings, fonts, other XML) is unpacked.
 */
function boundedParts(zip: ZipArchive, budget: XmlBudget): Map<string, string> {
  const parts = new Map<string, string>();
  const read = (path: string, xml = true): string | undefined => {
    const known = parts.get(path);
    if (known !== undefined) return known;
    const text = zip.text(path);
    if (text === undefined) return undefined;
    if (xml) budget.check(text);
    parts.set(path, text);
    return text;
  };
  /** The part mammoth picks for a relationship type: the first target that exists, else `fallback`. */
  const pick = (relsXml: string | undefined, type: string, dir: string, fallback: string): string => {
    const targets: string[] = [];
    if (relsXml !== undefined) {
      budget.stream(relsXml, {
        open(name, depth, tag) {
          if (depth !== 2 || name !== 'Relationship') return;
          if (tag.attribute('Type') === `${RELATIONSHIP_TYPES}${type}`) {
            targets.push(joinPath(dir, tag.attribute('Target') ?? ''));
          }
        },
      });
    }
    return targets.find((path) => zip.has(path)) ?? fallback;
  };

  read('[Content_Types].xml');
  const main = pick(read('_rels/.rels'), 'officeDocument', '', 'word/document.xml');
  if (read(main) === undefined) throw new Error('no main document part');
  const mainRels = read(relsPath(main));
  for (const type of RELATED_PARTS) {
    const path = pick(mainRels, type, dirname(main), `word/${type}.xml`);
    if (read(path) === undefined) continue;
    if (type === 'comments' || type === 'endnotes' || type === 'footnotes') read(relsPath(path));
  }
  read('mammoth/style-map', false);
  return parts;
}

/**
 * A Word (.docx) document through mammoth's HTML, which keeps headings, lists and tables, then the HTML
 * extractor. Word's "Title" style is the level-1 title; Heading 1–5 become subtitles of levels 2–6 when a
 * Title exists, else Heading 1 is a title. The document title is the file's core title, else the Title text.
 *
 * mammoth unpacks and parses on its own (JSZip, a DOM of every part), so it never sees the upload: the
 * parts it reads are first unpacked here within `maxXmlBytes` and scanned within `maxElements` and
 * `maxDepth`, then handed to it in a new, uncompressed zip holding only those parts.
 */
export async function extractDocx(bytes: Buffer, ctx: ExtractContext): Promise<ExtractedDocument> {
  const { zip, budget } = openOfficePackage(bytes, ctx, { label: 'DOCX', mainPart: 'word/document.xml' });
  let bounded: Uint8Array;
  try {
    const files: Zippable = {};
    for (const [path, text] of boundedParts(zip, budget)) files[path] = [strToU8(text), { level: 0 }];
    bounded = zipSync(files);
  } catch (error) {
    throw asExtractionError(error, ctx.key, 'DOCX');
  }
  const result = await raceAbort(
    mammoth.convertToHtml(
      { buffer: Buffer.from(bounded.buffer, bounded.byteOffset, bounded.byteLength) },
      { styleMap: STYLE_MAP, convertImage: NO_IMAGES, externalFileAccess: false },
    ),
    ctx.signal,
  );
  const document = extractHtml(result.value, { titleClass: TITLE_CLASS });
  // mammoth ends each footnote with a "↑" link back to its reference.
  for (const block of document.blocks) block.text = block.text.replace(/\s*↑$/, '');
  const title =
    coreTitle(zip.text('docProps/core.xml'), budget) ??
    document.blocks.find((block) => block.type === 'title')?.text;
  if (title !== undefined) document.title = title;
  else delete document.title;
  return document;
}
