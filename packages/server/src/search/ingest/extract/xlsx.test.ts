import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { extractDocument } from './extract-document.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const SHEET_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet';

const sheet = (rows: string) =>
  `<?xml version="1.0"?><worksheet xmlns="${MAIN}"><sheetData>${rows}</sheetData></worksheet>`;

function workbook(): Buffer {
  const files: Record<string, string> = {
    'xl/workbook.xml': `<?xml version="1.0"?><workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Prices" sheetId="1" r:id="rId1"/><sheet name="Empty" sheetId="2" r:id="rId2"/><sheet name="Notes" sheetId="3" r:id="rId3"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0"?><Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${SHEET_REL}" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${SHEET_REL}" Target="/xl/worksheets/sheet2.xml"/><Relationship Id="rId3" Type="${SHEET_REL}" Target="worksheets/sheet3.xml"/></Relationships>`,
    'xl/sharedStrings.xml': `<?xml version="1.0"?><sst xmlns="${MAIN}"><si><t>Fruit</t></si><si><t>Price</t></si><si><r><t>Gold</t></r><r><t>en apple</t></r><rPh><t>ignored</t></rPh></si><si><t>In stock</t></si></sst>`,
    'xl/worksheets/sheet1.xml': sheet(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>3</v></c></row>' +
        '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>1.25</v></c><c r="C2" t="b"><v>1</v></c></row>' +
        '<row r="4"><c r="A4" t="inlineStr"><is><t>Pear</t></is></c><c r="C4" t="b"><v>0</v></c></row>' +
        '<row r="5"><c r="A5" t="str"><f>A4</f><v>Pear</v></c></row>',
    ),
    'xl/worksheets/sheet2.xml': sheet(''),
    'xl/worksheets/sheet3.xml': sheet(
      '<row r="1"><c r="B1" t="inlineStr"><is><t>Prices include VAT.</t></is></c></row>',
    ),
  };
  return Buffer.from(
    zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)]))),
  );
}

describe('XLSX extraction', () => {
  it('gives each sheet a subtitle and a table, cells placed by column, shared and inline strings resolved', async () => {
    const document = await extractDocument(workbook(), XLSX, 'prices.xlsx');
    expect(document.blocks).toEqual([
      { type: 'subtitle', text: 'Prices', level: 2 },
      {
        type: 'table',
        header: 'Fruit | Price | In stock',
        text: 'Golden apple | 1.25 | TRUE\nPear |  | FALSE\nPear',
      },
      { type: 'subtitle', text: 'Notes', level: 2 },
      { type: 'table', text: 'Prices include VAT.' },
    ]);
  });

  it('fails unreadable_document for a zip without a workbook', async () => {
    const zip = Buffer.from(zipSync({ 'a.txt': strToU8('a') }));
    await expect(extractDocument(zip, XLSX, 'no.xlsx')).rejects.toMatchObject({
      code: 'unreadable_document',
    });
  });

  it('reads sheets and shared strings as XML: prefixes, entities, CDATA, rich runs, phonetic runs left out', async () => {
    const x = (rows: string) =>
      `<?xml version="1.0"?><!-- comment --><x:worksheet xmlns:x="${MAIN}"><x:dimension ref="A1:B2"/><x:sheetData>${rows}</x:sheetData></x:worksheet>`;
    const files: Record<string, string> = {
      'xl/workbook.xml': `<?xml version="1.0"?><workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="Menu &amp; prices" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      'xl/_rels/workbook.xml.rels': `<?xml version="1.0"?><Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${SHEET_REL}" Target="worksheets/sheet1.xml"/></Relationships>`,
      'xl/sharedStrings.xml': `<?xml version="1.0"?><x:sst xmlns:x="${MAIN}"><x:si><x:t>Dish</x:t><x:rPh sb="0" eb="1"><x:t>ignored</x:t></x:rPh></x:si><x:si><x:r><x:rPr><x:b/></x:rPr><x:t xml:space="preserve">Fish &amp; </x:t></x:r><x:r><x:t>chips</x:t><x:t>ignored second t</x:t></x:r><x:rPh sb="0" eb="1"><x:t>ignored</x:t></x:rPh></x:si></x:sst>`,
      'xl/worksheets/sheet1.xml': x(
        '<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="inlineStr"><x:is><x:t><![CDATA[Price <EUR>]]></x:t></x:is></x:c></x:row>' +
          '<x:row r="2"><x:c r="A2" t="s"><x:v>1</x:v></x:c><x:c r="B2" t="str"><x:f>1+1</x:f><x:v>&#8364;12</x:v></x:c></x:row>',
      ),
    };
    const bytes = Buffer.from(
      zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)]))),
    );
    expect((await extractDocument(bytes, XLSX, 'menu.xlsx')).blocks).toEqual([
      { type: 'subtitle', text: 'Menu & prices', level: 2 },
      { type: 'table', header: 'Dish | Price <EUR>', text: 'Fish & chips | €12' },
    ]);
  });

  it('fails unreadable_document for a sheet that is not well-formed XML', async () => {
    const zip = Buffer.from(
      zipSync({
        'xl/workbook.xml': strToU8(
          `<?xml version="1.0"?><workbook xmlns="${MAIN}" xmlns:r="${R}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
        ),
        'xl/_rels/workbook.xml.rels': strToU8(
          `<?xml version="1.0"?><Relationships xmlns="${REL_NS}"><Relationship Id="rId1" Type="${SHEET_REL}" Target="worksheets/sheet1.xml"/></Relationships>`,
        ),
        'xl/worksheets/sheet1.xml': strToU8(sheet('<row><c><v>1</v></row>')),
      }),
    );
    await expect(extractDocument(zip, XLSX, 'broken.xlsx')).rejects.toMatchObject({
      code: 'unreadable_document',
    });
  });
});
