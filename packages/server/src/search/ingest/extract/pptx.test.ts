import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { extractDocument } from './extract-document.js';

const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';
const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const SLIDE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide';
const NOTES_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/notesSlide';

const run = (text: string) => `<a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r>`;
const para = (text: string, pPr = '') => `<a:p>${pPr}${run(text)}</a:p>`;

function shape(type: string | undefined, paragraphs: string[]): string {
  const ph = type === undefined ? '' : type === '' ? '<p:ph idx="1"/>' : `<p:ph type="${type}"/>`;
  return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphs.join('')}</p:txBody></p:sp>`;
}

function table(rows: string[][]): string {
  const trs = rows.map(
    (cells) =>
      `<a:tr h="1">${cells.map((c) => `<a:tc><a:txBody><a:bodyPr/>${para(c)}</a:txBody></a:tc>`).join('')}</a:tr>`,
  );
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="t"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><a:graphic><a:graphicData><a:tbl><a:tblPr firstRow="1"/>${trs.join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
}

const slide = (content: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><p:sld ${NS}><p:cSld><p:spTree>${content}</p:spTree></p:cSld></p:sld>`;

/** A minimal deck: the presentation lists slide2.xml before slide1.xml, to show order follows the list. */
function deck(): Buffer {
  const files: Record<string, string> = {
    'ppt/presentation.xml': `<?xml version="1.0"?><p:presentation ${NS}><p:sldIdLst><p:sldId id="256" r:id="rId7"/><p:sldId id="257" r:id="rId8"/></p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': `<?xml version="1.0"?><Relationships xmlns="${REL_NS}"><Relationship Id="rId7" Type="${SLIDE_REL}" Target="slides/slide2.xml"/><Relationship Id="rId8" Type="${SLIDE_REL}" Target="slides/slide1.xml"/></Relationships>`,
    'ppt/slides/slide2.xml': slide(
      shape('ctrTitle', [para('Quarterly Review')]) +
        shape('subTitle', [para('Sales &amp; Marketing')]) +
        shape('sldNum', [para('1')]),
    ),
    'ppt/slides/slide1.xml': slide(
      shape('title', [para('Results')]) +
        shape('', [
          para('Revenue up 12%'),
          para('Churn down', '<a:pPr lvl="1"/>'),
          para('Plain line', '<a:pPr><a:buNone/></a:pPr>'),
        ]) +
        shape(undefined, [para('A free text box')]) +
        table([
          ['Region', 'Growth'],
          ['EMEA', '10%'],
        ]) +
        '<p:pic><p:nvPicPr><p:cNvPr id="5" name="p" descr="Bar chart of revenue"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr></p:pic>',
    ),
    'ppt/slides/_rels/slide1.xml.rels': `<?xml version="1.0"?><Relationships xmlns="${REL_NS}"><Relationship Id="rId2" Type="${NOTES_REL}" Target="../notesSlides/notesSlide1.xml"/></Relationships>`,
    'ppt/notesSlides/notesSlide1.xml': `<?xml version="1.0"?><p:notes ${NS}><p:cSld><p:spTree>${shape('sldImg', [])}${shape('body', [para('Mention the new hires.')])}</p:spTree></p:cSld></p:notes>`,
    'docProps/core.xml': `<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Q3 deck</dc:title></cp:coreProperties>`,
  };
  return Buffer.from(
    zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)]))),
  );
}

describe('PPTX extraction', () => {
  it('reads slides in presentation order, one page each, with titles, bullets, tables, alt text and notes', async () => {
    const document = await extractDocument(deck(), PPTX, 'review.pptx');
    expect(document.pageCount).toBe(2);
    expect(document.title).toBe('Q3 deck');
    expect(document.blocks).toEqual([
      { type: 'title', text: 'Quarterly Review', level: 1, pageNumber: 1 },
      { type: 'paragraph', text: 'Sales & Marketing', pageNumber: 1 },
      { type: 'subtitle', text: 'Results', level: 2, pageNumber: 2 },
      { type: 'list', text: '- Revenue up 12%', pageNumber: 2 },
      { type: 'list', text: '  - Churn down', pageNumber: 2 },
      { type: 'paragraph', text: 'Plain line', pageNumber: 2 },
      { type: 'paragraph', text: 'A free text box', pageNumber: 2 },
      { type: 'table', text: 'EMEA | 10%', header: 'Region | Growth', pageNumber: 2 },
      { type: 'image', text: 'Bar chart of revenue', pageNumber: 2 },
      { type: 'paragraph', text: 'Mention the new hires.', pageNumber: 2 },
    ]);
  });

  it('is recognised from its bytes when sent without a type or extension', async () => {
    const document = await extractDocument(deck(), 'application/octet-stream', 'upload');
    expect(document.pageCount).toBe(2);
  });

  it('fails too_large past the slide limit and unreadable_document for a broken deck', async () => {
    await expect(extractDocument(deck(), PPTX, 'review.pptx', { maxPages: 1 })).rejects.toMatchObject({
      code: 'too_large',
    });
    const broken = Buffer.from(zipSync({ 'ppt/presentation.xml': strToU8('<p:presentation><unclosed') }));
    await expect(extractDocument(broken, PPTX, 'broken.pptx')).rejects.toMatchObject({
      code: 'unreadable_document',
    });
  });
});
