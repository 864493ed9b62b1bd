import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { failureOf, noise } from '../../../../../testkit/src/server/extract-fixtures.js';
import { extractDocument } from './extract-document.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });

function handbook(withTitle: boolean): Promise<Buffer> {
  const children = [
    ...(withTitle ? [new Paragraph({ text: 'Staff Handbook', heading: HeadingLevel.TITLE })] : []),
    new Paragraph({ text: 'Leave policy', heading: HeadingLevel.HEADING_1 }),
    new Paragraph({
      children: [
        new TextRun('Employees get '),
        new TextRun({ text: '25 days', bold: true }),
        new TextRun(' of leave.'),
      ],
    }),
    new Paragraph({ text: 'Carry over', heading: HeadingLevel.HEADING_2 }),
    new Paragraph({ text: 'Up to five days carry over.', bullet: { level: 0 } }),
    new Paragraph({ text: 'Ask your manager first.', bullet: { level: 1 } }),
    new Table({
      rows: [
        new TableRow({ children: [cell('Name'), cell('Days')] }),
        new TableRow({ children: [cell('Alice'), cell('25')] }),
        new TableRow({ children: [cell('Bob'), cell('20')] }),
      ],
    }),
  ];
  return Packer.toBuffer(new Document({ title: 'Handbook 2025', sections: [{ children }] }));
}

describe('DOCX extraction', () => {
  it('turns headings, paragraphs, list items and tables into typed blocks', async () => {
    const document = await extractDocument(await handbook(false), DOCX, 'handbook.docx');
    expect(document.blocks).toEqual([
      { type: 'title', text: 'Leave policy', level: 1 },
      { type: 'paragraph', text: 'Employees get 25 days of leave.' },
      { type: 'subtitle', text: 'Carry over', level: 2 },
      { type: 'list', text: '- Up to five days carry over.' },
      { type: 'list', text: '  - Ask your manager first.' },
      { type: 'table', text: 'Alice | 25\nBob | 20', header: 'Name | Days' },
    ]);
  });

  it("makes Word's Title style the title and moves the headings below it one level down", async () => {
    const document = await extractDocument(await handbook(true), DOCX, 'handbook.docx');
    expect(document.blocks.slice(0, 4)).toEqual([
      { type: 'title', text: 'Staff Handbook', level: 1 },
      { type: 'subtitle', text: 'Leave policy', level: 2 },
      { type: 'paragraph', text: 'Employees get 25 days of leave.' },
      { type: 'subtitle', text: 'Carry over', level: 3 },
    ]);
  });

  it('takes the document title from the core properties', async () => {
    expect((await extractDocument(await handbook(true), DOCX, 'handbook.docx')).title).toBe('Handbook 2025');
  });

  it('is found by extension when uploaded as application/octet-stream', async () => {
    const document = await extractDocument(
      await handbook(false),
      'application/octet-stream',
      'handbook.docx',
    );
    expect(document.blocks[0]).toEqual({ type: 'title', text: 'Leave policy', level: 1 });
  });

  it('fails unreadable_document for random bytes named .docx', async () => {
    const error = await failureOf(extractDocument(noise(4096), DOCX, 'random.docx'));
    expect(error).toMatchObject({ code: 'unreadable_document' });
    expect((error as Error).message).toContain('"random.docx" could not be read as DOCX');
  });

  it('fails unreadable_document for a zip that is not a Word document', async () => {
    const zip = Buffer.from(zipSync({ 'hello.txt': new TextEncoder().encode('hello') }));
    await expect(extractDocument(zip, DOCX, 'other.docx')).rejects.toMatchObject({
      code: 'unreadable_document',
    });
  });

  it('fails too_large when the archive unpacks past the limit', async () => {
    await expect(
      extractDocument(await handbook(false), DOCX, 'big.docx', { maxUnzippedBytes: 1000 }),
    ).rejects.toMatchObject({ code: 'too_large' });
  });
});
