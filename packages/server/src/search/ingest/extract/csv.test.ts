import { describe, expect, it } from 'vitest';
import { extractText } from '../../../../../testkit/src/server/extract-fixtures.js';
import { extractDocument } from './extract-document.js';

describe('CSV extraction', () => {
  it('gives one table block with the header row apart, quoted cells and commas kept', async () => {
    const csv = 'name,city,notes\r\nAnn,Paris,"likes ""quotes"", commas"\r\nBob,Oslo,\r\n\r\n';
    const document = await extractText(csv, 'text/csv', 'people.csv');
    expect(document.blocks).toEqual([
      {
        type: 'table',
        header: 'name | city | notes',
        text: 'Ann | Paris | likes "quotes", commas\nBob | Oslo',
      },
    ]);
  });

  it('sniffs semicolons and tabs, and reads TSV by content type', async () => {
    const semicolons = await extractText('a;b\n1;2\n', 'text/csv', 'x.csv');
    expect(semicolons.blocks[0]).toMatchObject({ header: 'a | b', text: '1 | 2' });
    const tabs = await extractText('a\tb\n1\t2\n', 'text/tab-separated-values', 'x.tsv');
    expect(tabs.blocks[0]).toMatchObject({ header: 'a | b', text: '1 | 2' });
  });

  it('keeps a numeric first row as data', async () => {
    const document = await extractText('1,2\n3,4\n', 'text/csv', 'numbers.csv');
    expect(document.blocks).toEqual([{ type: 'table', text: '1 | 2\n3 | 4' }]);
  });

  it('reads CSV sent as application/vnd.ms-excel, as Windows browsers do', async () => {
    const document = await extractText('a,b\nx,y\n', 'application/vnd.ms-excel', 'sheet.csv');
    expect(document.blocks[0]).toMatchObject({ type: 'table', header: 'a | b' });
  });

  it('decodes a UTF-8 BOM and Windows-1252 bytes', async () => {
    const bom = await extractText('\uFEFFcafé,prix\nnoir,2\n', 'text/csv', 'bom.csv');
    expect(bom.blocks[0]).toMatchObject({ header: 'café | prix' });
    const latin = await extractDocument(
      Buffer.from('caf\xe9,prix\nnoir,2\n', 'latin1'),
      'text/csv',
      'cp1252.csv',
    );
    expect(latin.blocks[0]).toMatchObject({ header: 'café | prix' });
  });

  it('fails empty_document for a CSV with only separators', async () => {
    await expect(extractText(',,\n,,\n', 'text/csv', 'blank.csv')).rejects.toMatchObject({
      code: 'empty_document',
    });
  });
});
