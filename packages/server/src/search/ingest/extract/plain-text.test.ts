import { describe, expect, it } from 'vitest';
import { extractText, failureOf } from '../../../../../testkit/src/server/extract-fixtures.js';
import { ExtractionError } from '../../types.js';
import { extractDocument } from './extract-document.js';

describe('plain text extraction', () => {
  it.each([
    [
      'splits paragraphs on blank lines and keeps line breaks inside them',
      'First paragraph,\nwrapped.\r\n\r\nSecond one.\n \n\n\nThird.',
      [
        { type: 'paragraph', text: 'First paragraph,\nwrapped.' },
        { type: 'paragraph', text: 'Second one.' },
        { type: 'paragraph', text: 'Third.' },
      ],
    ],
    [
      'reads a paragraph of bullet lines as list items, continuation lines included',
      'Shopping:\n\n- apples\n- pears that are\n  very ripe\n* plums',
      [
        { type: 'paragraph', text: 'Shopping:' },
        { type: 'list', text: '- apples' },
        { type: 'list', text: '- pears that are very ripe' },
        { type: 'list', text: '* plums' },
      ],
    ],
  ])('%s', async (_, text, blocks) => {
    expect((await extractText(text, 'text/plain', 'notes.txt')).blocks).toEqual(blocks);
  });

  it('decodes UTF-16 with a byte order mark', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Grüße aus Köln.', 'utf16le')]);
    const document = await extractDocument(bytes, 'text/plain', 'utf16.txt');
    expect(document.blocks).toEqual([{ type: 'paragraph', text: 'Grüße aus Köln.' }]);
  });

  it('fails empty_document for an empty or blank file', async () => {
    for (const content of ['', '  \n\n\t  \n']) {
      const error = await failureOf(extractText(content, 'text/plain', 'empty.txt'));
      expect(error).toBeInstanceOf(ExtractionError);
      expect(error).toMatchObject({
        code: 'empty_document',
        message: '"empty.txt" contains no text to index.',
      });
    }
  });

  it('fails unreadable_document for binary content sent as text', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01, 0x02]);
    await expect(extractDocument(bytes, 'text/plain', 'fake.txt')).rejects.toMatchObject({
      code: 'unreadable_document',
    });
  });
});
