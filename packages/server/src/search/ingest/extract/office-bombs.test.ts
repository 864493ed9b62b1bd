import { crc32, createDeflateRaw } from 'node:zlib';
import { strToU8, Zip, ZipDeflate, type ZipInputFile } from 'fflate';
import mammoth from 'mammoth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failureOf } from '../../../../../testkit/src/server/extract-fixtures.js';
import { ExtractionError } from '../../types.js';
import { extractDocument } from './extract-document.js';

// Decompression bombs built in-process: the bomb part is deflated by zlib from a repeated unit, streaming,
// so the test never holds the unpacked text; fflate's Zip puts it in a container with the other parts and
// writes whatever unpacked size we tell it in the zip directory (true or not).

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const MB = 1024 * 1024;

interface Deflated {
  data: Uint8Array<ArrayBuffer>;
  size: number;
  crc: number;
}

/** `prefix + unit × count + suffix` deflated, never held unpacked (1 MiB of units at a time). */
async function deflateRepeated(
  prefix: string,
  unit: string,
  count: number,
  suffix: string,
): Promise<Deflated> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  let size = 0;
  let crc = 0;
  const write = (piece: Buffer): void => {
    size += piece.length;
    crc = crc32(piece, crc);
    deflate.write(piece);
  };
  write(Buffer.from(prefix));
  const perChunk = Math.max(1, Math.floor(MB / unit.length));
  const chunk = Buffer.from(unit.repeat(perChunk));
  for (let left = count; left > 0; left -= perChunk) {
    write(left >= perChunk ? chunk : chunk.subarray(0, left * unit.length));
  }
  write(Buffer.from(suffix));
  deflate.end();
  await ended;
  return { data: new Uint8Array(Buffer.concat(out)), size, crc };
}

/**
 * A zip of `files`, plus `deflated` parts whose directory entries declare `declare(size)` as their
 * unpacked size (the true size by default).
 */
function zipOf(
  files: Record<string, string>,
  deflated: Record<string, Deflated> = {},
  declare: (size: number) => number = (size) => size,
): Buffer {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    chunks.push(chunk);
  });
  for (const [name, text] of Object.entries(files)) {
    const file = new ZipDeflate(name, { level: 6 });
    zip.add(file);
    file.push(strToU8(text), true);
  }
  for (const [name, part] of Object.entries(deflated)) {
    const file: ZipInputFile = { filename: name, size: declare(part.size), crc: part.crc, compression: 8 };
    zip.add(file);
    file.ondata?.(null, part.data, true);
  }
  zip.end();
  return Buffer.concat(chunks);
}

function workbookParts(sheet = 'xl/worksheets/sheet1.xml'): Record<string, string> {
  return {
    'xl/workbook.xml': `<?xml version="1.0"?><workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0"?><Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${R}/worksheet" Target="/${sheet}"/></Relationships>`,
  };
}

const SHEET_OPEN = `<?xml version="1.0"?><worksheet xmlns="${MAIN}"><sheetData>`;
const SHEET_CLOSE = '</sheetData></worksheet>';

function documentParts(main = 'word/document.xml'): Record<string, string> {
  return {
    '[Content_Types].xml': `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0"?><Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${R}/officeDocument" Target="${main}"/></Relationships>`,
  };
}

const DOCUMENT_OPEN = `<?xml version="1.0"?><w:document xmlns:w="${W}"><w:body>`;
const DOCUMENT_CLOSE = '</w:body></w:document>';

/** A Word document body of 4.5 million one-letter paragraphs: over 150 MB unpacked. */
const hugeDocumentBody = (): Promise<Deflated> =>
  deflateRepeated(DOCUMENT_OPEN, '<w:p><w:r><w:t>a</w:t></w:r></w:p>', 4_500_000, DOCUMENT_CLOSE);

/**
 * Runs `work` and reports the CPU time it took the process (`cpuMs`: a loaded machine stretches wall-clock time,
 * not this) and how much the process grew (resident now and at peak).
 */
async function measure<T>(
  work: () => Promise<T>,
): Promise<{ outcome: T; cpuMs: number; rss: number; peak: number }> {
  const before = process.memoryUsage().rss;
  const peakBefore = process.resourceUsage().maxRSS * 1024;
  const cpu = process.cpuUsage();
  const outcome = await work();
  const used = process.cpuUsage(cpu);
  return {
    outcome,
    cpuMs: (used.user + used.system) / 1000,
    rss: (process.memoryUsage().rss - before) / MB,
    peak: (process.resourceUsage().maxRSS * 1024 - peakBefore) / MB,
  };
}

/**
 * The failure of extracting `bytes`, asserted quick (under 3 s of CPU, where these take under 0.1 s; without its
 * limit the 600,000-element DOCX went on into mammoth for 6.6 s) and lean (under 150 MB, resident and at peak).
 */
async function boundedFailure(bytes: Buffer, contentType: string, key: string): Promise<unknown> {
  const { outcome, cpuMs, rss, peak } = await measure(() =>
    failureOf(extractDocument(bytes, contentType, key)),
  );
  expect(cpuMs).toBeLessThan(3000);
  expect(rss).toBeLessThan(150);
  expect(peak).toBeLessThan(150);
  return outcome;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Office decompression bombs', () => {
  it('rejects an XLSX whose sheet unpacks to 190 MB quickly, without the memory it would take', async () => {
    const sheet = await deflateRepeated(SHEET_OPEN, '<row><c><v>1</v></c></row>', 7_300_000, SHEET_CLOSE);
    expect(sheet.size).toBeGreaterThan(185_000_000);
    const bytes = zipOf(workbookParts(), { 'xl/worksheets/sheet1.xml': sheet });
    expect(bytes.length).toBeLessThan(2 * MB);
    const outcome = await boundedFailure(bytes, XLSX, 'bomb.xlsx');
    expect(outcome).toBeInstanceOf(ExtractionError);
    expect(outcome).toMatchObject({ code: 'too_large' });
    expect((outcome as Error).message).toContain('unpacked bytes');
  });

  it('stops inflating an XLSX sheet at the budget when the zip directory declares a tiny size for 190 MB', async () => {
    const sheet = await deflateRepeated(SHEET_OPEN, '<row><c><v>1</v></c></row>', 7_300_000, SHEET_CLOSE);
    const bytes = zipOf(workbookParts(), { 'xl/worksheets/sheet1.xml': sheet }, () => 1000);
    const outcome = await boundedFailure(bytes, XLSX, 'liar.xlsx');
    expect(outcome).toMatchObject({ code: 'too_large' });
    expect((outcome as Error).message).toBe(
      '"liar.xlsx" is too large to index: it has more unpacked bytes than the limit of 67,108,864.',
    );
  });

  it('counts the bytes really inflated against maxXmlBytes, whatever sizes the directory declares', async () => {
    const sheet = await deflateRepeated(SHEET_OPEN, '<row><c><v>1</v></c></row>', 100_000, SHEET_CLOSE);
    const bytes = zipOf(workbookParts(), { 'xl/worksheets/sheet1.xml': sheet }, () => 10);
    await expect(extractDocument(bytes, XLSX, 'small.xlsx', { maxXmlBytes: MB })).rejects.toMatchObject({
      code: 'too_large',
      message: expect.stringContaining('more unpacked bytes than the limit of 1,048,576'),
    });
    const document = await extractDocument(bytes, XLSX, 'small.xlsx', { maxXmlBytes: 4 * MB });
    expect(document.blocks[1]?.text.split('\n')).toHaveLength(100_000);
  });

  it('fails too_large past maxCells, counting the empty cells that fill the gaps before a far column', async () => {
    const cells = Array.from({ length: 100 }, (_, i) => {
      let column = '';
      for (let n = i * 16_000 + 1; n > 0; n = Math.floor((n - 1) / 26))
        column = String.fromCharCode(65 + ((n - 1) % 26)) + column;
      return `<c r="${column}1" t="inlineStr"><is><t>x</t></is></c>`;
    });
    const far = zipOf({
      ...workbookParts(),
      'xl/worksheets/sheet1.xml': `${SHEET_OPEN}<row r="1">${cells.join('')}</row>${SHEET_CLOSE}`,
    });
    await expect(extractDocument(far, XLSX, 'sparse.xlsx')).rejects.toMatchObject({
      code: 'too_large',
      message: expect.stringContaining('more spreadsheet cells than the limit of 1,000,000'),
    });
    const rows = zipOf({
      ...workbookParts(),
      'xl/worksheets/sheet1.xml': `${SHEET_OPEN}${'<row><c><v>7</v></c></row>'.repeat(2000)}${SHEET_CLOSE}`,
    });
    await expect(extractDocument(rows, XLSX, 'rows.xlsx', { maxCells: 1999 })).rejects.toMatchObject({
      code: 'too_large',
    });
    expect((await extractDocument(rows, XLSX, 'rows.xlsx', { maxCells: 2000 })).blocks).toHaveLength(2);
  });

  it('fails too_large when one long shared string repeated in many cells passes maxChars, before building the table', async () => {
    const bytes = zipOf({
      ...workbookParts(),
      'xl/sharedStrings.xml': `<?xml version="1.0"?><sst xmlns="${MAIN}"><si><t>${'lorem ipsum '.repeat(100_000)}</t></si></sst>`,
      'xl/worksheets/sheet1.xml': `${SHEET_OPEN}${'<row><c t="s"><v>0</v></c></row>'.repeat(100_000)}${SHEET_CLOSE}`,
    });
    const { outcome, cpuMs, peak } = await measure(() =>
      failureOf(extractDocument(bytes, XLSX, 'echo.xlsx')),
    );
    expect(outcome).toMatchObject({
      code: 'too_large',
      message: expect.stringContaining('more characters of text than the limit of 10,000,000'),
    });
    expect(cpuMs).toBeLessThan(3000);
    expect(peak).toBeLessThan(150);
  });

  it('rejects a DOCX whose document unpacks to 150 MB before mammoth reads it', async () => {
    const convert = vi.spyOn(mammoth, 'convertToHtml');
    const body = await hugeDocumentBody();
    expect(body.size).toBeGreaterThan(150_000_000);
    for (const declare of [(size: number) => size, () => 1000]) {
      const bytes = zipOf(documentParts(), { 'word/document.xml': body }, declare);
      const outcome = await boundedFailure(bytes, DOCX, 'bomb.docx');
      expect(outcome).toMatchObject({ code: 'too_large' });
      expect((outcome as Error).message).toContain('unpacked bytes');
    }
    expect(convert).not.toHaveBeenCalled();
  });

  it('checks the part the package relationships make the main document, not only word/document.xml', async () => {
    const convert = vi.spyOn(mammoth, 'convertToHtml');
    const body = await hugeDocumentBody();
    const bytes = zipOf(
      {
        ...documentParts('word/main.xml'),
        'word/document.xml': `${DOCUMENT_OPEN}<w:p><w:r><w:t>decoy</w:t></w:r></w:p>${DOCUMENT_CLOSE}`,
      },
      { 'word/main.xml': body },
      () => 1000,
    );
    await expect(extractDocument(bytes, DOCX, 'decoy.docx')).rejects.toMatchObject({ code: 'too_large' });
    expect(convert).not.toHaveBeenCalled();
  });

  it('fails too_large, naming the limit, on a DOCX with more XML elements than maxElements, before mammoth', async () => {
    const convert = vi.spyOn(mammoth, 'convertToHtml');
    const bytes = zipOf({
      ...documentParts(),
      'word/document.xml': `${DOCUMENT_OPEN}${'<w:p/>'.repeat(600_000)}${DOCUMENT_CLOSE}`,
    });
    const { outcome, cpuMs } = await measure(() => failureOf(extractDocument(bytes, DOCX, 'many.docx')));
    expect(outcome).toMatchObject({
      code: 'too_large',
      message: '"many.docx" is too large to index: it has more XML elements than the limit of 500,000.',
    });
    expect(cpuMs).toBeLessThan(3000);
    expect(convert).not.toHaveBeenCalled();
  });

  it('never unpacks images: a DOCX with a 300 MB image still gives its text', async () => {
    const image = await deflateRepeated('', '\0', 300 * MB, '');
    const bytes = zipOf(
      {
        ...documentParts(),
        'word/document.xml': `${DOCUMENT_OPEN}<w:p><w:r><w:t>Hello there.</w:t></w:r></w:p>${DOCUMENT_CLOSE}`,
      },
      { 'word/media/image1.png': image },
    );
    const document = await extractDocument(bytes, DOCX, 'photo.docx');
    expect(document.blocks).toEqual([{ type: 'paragraph', text: 'Hello there.' }]);
  });

  it('fails too_large on 100 000 levels of nesting in a sheet, a slide or a Word document, never a RangeError', async () => {
    const deep = (open: string, close: string): string => open.repeat(100_000) + close.repeat(100_000);
    const xlsx = zipOf({
      ...workbookParts(),
      'xl/worksheets/sheet1.xml': `${SHEET_OPEN}<row><c t="inlineStr"><is>${deep('<r>', '</r>')}</is></c></row>${SHEET_CLOSE}`,
    });
    const NS = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${R}" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`;
    const pptx = zipOf({
      'ppt/presentation.xml': `<?xml version="1.0"?><p:presentation ${NS}><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`,
      'ppt/_rels/presentation.xml.rels': `<?xml version="1.0"?><Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${R}/slide" Target="slides/slide1.xml"/></Relationships>`,
      'ppt/slides/slide1.xml': `<?xml version="1.0"?><p:sld ${NS}><p:cSld><p:spTree>${deep('<p:grpSp>', '</p:grpSp>')}</p:spTree></p:cSld></p:sld>`,
    });
    const docx = zipOf({
      ...documentParts(),
      'word/document.xml': `${DOCUMENT_OPEN}${deep('<w:sdt><w:sdtContent>', '</w:sdtContent></w:sdt>')}${DOCUMENT_CLOSE}`,
    });
    for (const [bytes, type, key] of [
      [xlsx, XLSX, 'deep.xlsx'],
      [pptx, PPTX, 'deep.pptx'],
      [docx, DOCX, 'deep.docx'],
    ] as const) {
      const error = await failureOf(extractDocument(bytes, type, key));
      expect(error, key).toBeInstanceOf(ExtractionError);
      expect(error, key).toMatchObject({
        code: 'too_large',
        message: `"${key}" is too large to index: it has more levels of XML nesting than the limit of 1,000.`,
      });
    }
  });

  it('still reads a Word document nested as deep as the default limit allows', async () => {
    const depth = 3 + 2 * 495; // w:document, w:body, 495 × (w:sdt, w:sdtContent), w:p
    expect(depth + 3).toBeLessThanOrEqual(1000);
    const bytes = zipOf({
      ...documentParts(),
      'word/document.xml': `${DOCUMENT_OPEN}${'<w:sdt><w:sdtContent>'.repeat(495)}<w:p><w:r><w:t>Deep.</w:t></w:r></w:p>${'</w:sdtContent></w:sdt>'.repeat(495)}${DOCUMENT_CLOSE}`,
    });
    const document = await extractDocument(bytes, DOCX, 'nested.docx');
    expect(document.blocks).toEqual([{ type: 'paragraph', text: 'Deep.' }]);
  });
});
