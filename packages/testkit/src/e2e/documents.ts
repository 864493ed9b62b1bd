// Small real documents for browser tests that upload files: a PDF (pdf-lib) and a Word document (docx), one
// line of text per page or paragraph, as people's own files would carry them.

/** A PDF with one page per line of `lines`, drawn with pdf-lib. */
export async function pdfOf(lines: string[]): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const line of lines) doc.addPage([600, 800]).drawText(line, { x: 50, y: 700, size: 14, font });
  return Buffer.from(await doc.save());
}

/** A Word document with a heading and one paragraph per line of `paragraphs`, made with the docx package. */
export async function docxOf(heading: string, paragraphs: string[]): Promise<Buffer> {
  const { Document, HeadingLevel, Packer, Paragraph } = await import('docx');
  const children = [
    new Paragraph({ text: heading, heading: HeadingLevel.HEADING_1 }),
    ...paragraphs.map((text) => new Paragraph(text)),
  ];
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/** The MIME type of a .docx file. */
export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
