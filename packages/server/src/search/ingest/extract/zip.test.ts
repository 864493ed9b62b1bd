import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ExtractionError } from '../../types.js';
import { DEFAULT_EXTRACT_LIMITS, type ExtractContext } from './options.js';
import { ZipArchive, zipEntryNames } from './zip.js';

function context(limits: Partial<ExtractContext> = {}): ExtractContext {
  return { key: 'test.zip', signal: new AbortController().signal, ...DEFAULT_EXTRACT_LIMITS, ...limits };
}

/** Rewrites the unpacked size every local header and directory entry of `zip` declares. */
function declareSizes(zip: Uint8Array, size: number): Uint8Array {
  const patched = zip.slice();
  const view = new DataView(patched.buffer);
  for (let at = 0; at + 4 <= patched.length; at++) {
    const signature = view.getUint32(at, true);
    if (signature === 0x04034b50) view.setUint32(at + 22, size, true);
    else if (signature === 0x02014b50) view.setUint32(at + 24, size, true);
  }
  return patched;
}

const ZEROS = 'x'.repeat(600_000);

describe('zip reading', () => {
  it('lists the entries from the directory and reads stored and deflated ones as text', () => {
    const zip = zipSync({
      'stored.xml': [strToU8('<a>stored ✓</a>'), { level: 0 }],
      'deflated.xml': [strToU8('<b>deflated</b>'), { level: 9 }],
      'image.png': [new Uint8Array(1000), { level: 9 }],
    });
    expect(zipEntryNames(zip)).toEqual(['stored.xml', 'deflated.xml', 'image.png']);
    const archive = ZipArchive.open(zip, context(), 'ZIP');
    expect(archive.text('stored.xml')).toBe('<a>stored ✓</a>');
    expect(archive.text('deflated.xml')).toBe('<b>deflated</b>');
    expect(archive.has('image.png')).toBe(true);
    expect(archive.text('missing.xml')).toBeUndefined();
  });

  it('is no zip for random bytes: zipEntryNames undefined, opening unreadable_document', () => {
    const bytes = strToU8('PK\u0003\u0004 but nothing after it');
    expect(zipEntryNames(bytes)).toBeUndefined();
    expect(() => ZipArchive.open(bytes, context(), 'XLSX')).toThrow(
      expect.objectContaining({ code: 'unreadable_document' }),
    );
  });

  it('rejects from the declared sizes alone when they pass the budget, before inflating anything', () => {
    const zip = declareSizes(zipSync({ 'a.xml': strToU8('<a/>') }), 2_000_000_000);
    const archive = ZipArchive.open(zip, context(), 'ZIP');
    expect(() => archive.checkDeclared(() => true)).toThrow(
      '"test.zip" is too large to index: it has more unpacked bytes than the limit of 67,108,864.',
    );
    expect(() => archive.text('a.xml')).toThrow(expect.objectContaining({ code: 'too_large' }));
  });

  it('counts the bytes really inflated, over all entries read, whatever sizes the directory declares', () => {
    const zip = declareSizes(zipSync({ 'a.xml': strToU8(ZEROS), 'b.xml': strToU8(ZEROS) }), 10);
    const archive = ZipArchive.open(zip, context({ maxXmlBytes: 1_000_000 }), 'ZIP');
    expect(() => archive.checkDeclared(() => true)).not.toThrow();
    expect(archive.text('a.xml')).toHaveLength(600_000);
    expect(() => archive.text('b.xml')).toThrow(
      '"test.zip" is too large to index: it has more unpacked bytes than the limit of 1,000,000.',
    );
  });

  it('takes the lower of maxXmlBytes and maxUnzippedBytes as the budget', () => {
    const zip = zipSync({ 'a.xml': strToU8(ZEROS) });
    expect(ZipArchive.open(zip, context({ maxUnzippedBytes: 1000 }), 'ZIP').limit).toBe(1000);
    expect(() => ZipArchive.open(zip, context({ maxUnzippedBytes: 1000 }), 'ZIP').text('a.xml')).toThrow(
      ExtractionError,
    );
  });

  it('fails unreadable_document for a damaged, truncated or encrypted entry', () => {
    const zip = zipSync({ 'a.xml': strToU8(ZEROS) });
    /** `zip` with its directory entry changed by `patch`. */
    const withEntry = (patch: (view: DataView, at: number) => void): Uint8Array => {
      const copy = zip.slice();
      const view = new DataView(copy.buffer);
      for (let at = 0; at + 4 <= copy.length; at++)
        if (view.getUint32(at, true) === 0x02014b50) patch(view, at);
      return copy;
    };
    const damaged = zip.slice();
    damaged.fill(0xff, 30 + 'a.xml'.length, 38 + 'a.xml'.length); // DEFLATE block type 3 is invalid
    const truncated = withEntry((view, at) => view.setUint32(at + 20, 10_000_000, true));
    const encrypted = withEntry((view, at) => view.setUint16(at + 8, 1, true));
    const unknownMethod = withEntry((view, at) => view.setUint16(at + 10, 14, true));
    for (const bytes of [damaged, truncated, encrypted, unknownMethod]) {
      expect(() => ZipArchive.open(bytes, context(), 'XLSX').text('a.xml')).toThrow(
        expect.objectContaining({ code: 'unreadable_document' }),
      );
    }
  });
});
