// Office documents built to unpack far beyond their size: what a hostile caller sends for indexing.
import { strToU8, zipSync } from 'fflate';

/**
 * An XLSX of one sheet whose XML unpacks to about `mib` MiB of `<row><c t="inlineStr"><is><t>boom</t></is></c></row>`
 * zipped at level 9 by fflate: the
 * decompression bomb of the abuse benchmark and of e2e/abuse.test.ts.
 */
export function xlsxBomb(mib: number): { bytes: Buffer; unpacked: number } {
  const row = '<row><c t="inlineStr"><is><t>boom</t></is></c></row>';
  const rows = row.repeat(Math.ceil((mib * 1024 * 1024) / row.length));
  const sheet = strToU8(
    `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`,
  );
  const files = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    ),
    'xl/workbook.xml': strToU8(
      '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    'xl/worksheets/sheet1.xml': sheet,
  };
  return { bytes: Buffer.from(zipSync(files, { level: 9 })), unpacked: sheet.length };
}
