import { Document, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { failureOf, noise } from '../../../../../testkit/src/server/extract-fixtures.js';
import { ExtractionError } from '../../types.js';
import { detectFormat } from './detect-format.js';
import { extractDocument } from './extract-document.js';

async function pdfOf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++)
    doc.addPage([300, 300]).drawText(`Page ${i} text.`, { x: 20, y: 250, size: 12, font });
  return Buffer.from(await doc.save());
}

const CONTENT_TYPES = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'text/html',
  'text/csv',
  'text/markdown',
  'text/plain',
  'application/json',
];

describe('format detection', () => {
  it('goes by content type first, ignoring parameters and case', () => {
    expect(detectFormat(Buffer.alloc(0), 'Application/PDF; qs=1', 'x.bin')).toEqual({ format: 'pdf' });
    expect(detectFormat(Buffer.alloc(0), 'text/html; charset=utf-8', 'x.txt')).toEqual({ format: 'html' });
  });

  it('lets the extension refine text/plain and decide for generic or unknown types', () => {
    expect(detectFormat(Buffer.alloc(0), 'text/plain', 'notes.md')).toEqual({ format: 'markdown' });
    expect(detectFormat(Buffer.alloc(0), 'text/plain', 'paper.pdf')).toEqual({ format: 'text' });
    expect(detectFormat(Buffer.alloc(0), 'application/octet-stream', 'Report.PDF')).toEqual({
      format: 'pdf',
    });
    expect(detectFormat(Buffer.alloc(0), 'application/x-unknown', 'deck.pptx')).toEqual({ format: 'pptx' });
    expect(detectFormat(Buffer.alloc(0), '', 'data/2025/rows.csv')).toEqual({ format: 'csv' });
  });

  it('reads other text types as plain text and sniffs PDF bytes without a type or extension', () => {
    expect(detectFormat(Buffer.alloc(0), 'text/x-python', 'script.py')).toEqual({ format: 'text' });
    expect(detectFormat(Buffer.alloc(0), 'application/vnd.api+json', 'x')).toEqual({ format: 'json' });
    expect(detectFormat(Buffer.from('%PDF-1.7\n...'), 'application/octet-stream', 'upload')).toEqual({
      format: 'pdf',
    });
  });

  it('never reads images as documents, whatever the extension', () => {
    expect(detectFormat(Buffer.alloc(0), 'image/png', 'scan.pdf').format).toBeUndefined();
  });
});

describe('extractDocument', () => {
  it('fails unsupported_format for an image, naming its content type', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const error = await failureOf(extractDocument(png, 'image/png', 'photo.png'));
    expect(error).toBeInstanceOf(ExtractionError);
    expect(error).toMatchObject({ code: 'unsupported_format' });
    expect((error as Error).message).toContain('"image/png"');
    expect((error as Error).message).toContain('photo.png');
  });

  it('fails unsupported_format for legacy binary Office files, suggesting the modern format', async () => {
    const error = await failureOf(extractDocument(noise(64), 'application/msword', 'old.doc'));
    expect(error).toMatchObject({ code: 'unsupported_format' });
    expect((error as Error).message).toContain('save "old.doc" as DOCX');
  });

  it('fails unsupported_format for unknown binary content', async () => {
    await expect(extractDocument(noise(256), 'application/octet-stream', 'blob')).rejects.toMatchObject({
      code: 'unsupported_format',
    });
  });

  it('fails too_large when reading takes longer than the time bound', async () => {
    const slow = extractDocument(await pdfOf(60), 'application/pdf', 'slow.pdf', { timeoutMs: 1 });
    const error = await failureOf(slow);
    expect(error).toMatchObject({ code: 'too_large' });
    expect((error as Error).message).toContain('took longer than');
  });

  it('fails too_large past the character limit', async () => {
    const text = Buffer.from('word '.repeat(1000));
    await expect(extractDocument(text, 'text/plain', 'long.txt', { maxChars: 100 })).rejects.toMatchObject({
      code: 'too_large',
    });
  });

  it('rejects only with ExtractionError for random, truncated or mislabelled bytes of every format', async () => {
    const docx = await Packer.toBuffer(
      new Document({ sections: [{ children: [new Paragraph('Hello there.')] }] }),
    );
    const pdf = await pdfOf(2);
    const inputs = [
      noise(2048),
      Buffer.alloc(0),
      pdf.subarray(0, 300),
      docx.subarray(0, docx.length - 200),
      Buffer.concat([Buffer.from('%PDF-1.7\n'), noise(500)]),
      Buffer.concat([Buffer.from('PK\u0003\u0004'), noise(500)]),
    ];
    for (const type of CONTENT_TYPES) {
      for (const bytes of inputs) {
        const outcome = await extractDocument(bytes, type, 'fuzz').then(
          (document) => ({ document }),
          (error: unknown) => ({ error }),
        );
        if ('error' in outcome)
          expect(outcome.error, `${type}: ${String(outcome.error)}`).toBeInstanceOf(ExtractionError);
        else expect(outcome.document.blocks.length, type).toBeGreaterThan(0);
      }
    }
  });
});
