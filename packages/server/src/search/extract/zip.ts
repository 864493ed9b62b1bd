import { unzipSync } from 'fflate';
import { ExtractionError } from '../types.js';
import { type ExtractContext, tooLarge, unreadable } from './options.js';

function view(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Names of the entries of a zip, read from its directory without unpacking anything; undefined if not a zip. */
export function zipEntryNames(bytes: Uint8Array): string[] | undefined {
  const names: string[] = [];
  try {
    unzipSync(view(bytes), {
      filter: (file) => {
        names.push(file.name);
        return false;
      },
    });
  } catch {
    return undefined;
  }
  return names;
}

/**
 * Checks that `bytes` is a zip whose declared unpacked size fits `ctx.maxUnzippedBytes`, without
 * unpacking it: `unreadable_document` if it is no zip, `too_large` if it unpacks too big.
 */
export function checkZip(bytes: Uint8Array, ctx: ExtractContext, label: string): string[] {
  let total = 0;
  const names: string[] = [];
  try {
    unzipSync(view(bytes), {
      filter: (file) => {
        names.push(file.name);
        total += file.originalSize;
        return false;
      },
    });
  } catch (error) {
    throw unreadable(ctx.key, label, error);
  }
  if (total > ctx.maxUnzippedBytes) throw tooLarge(ctx.key, 'unpacked bytes', ctx.maxUnzippedBytes);
  return names;
}

/**
 * The entries of a zip that `wanted` selects, unpacked and decoded as UTF-8 text; the declared sizes
 * of the selected entries are bounded by `ctx.maxUnzippedBytes`.
 */
export function readZipTexts(
  bytes: Uint8Array,
  ctx: ExtractContext,
  label: string,
  wanted: (name: string) => boolean,
): Map<string, string> {
  let total = 0;
  let unpacked: Record<string, Uint8Array>;
  try {
    unpacked = unzipSync(view(bytes), {
      filter: (file) => {
        if (!wanted(file.name)) return false;
        total += file.originalSize;
        if (total > ctx.maxUnzippedBytes) throw tooLarge(ctx.key, 'unpacked bytes', ctx.maxUnzippedBytes);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw unreadable(ctx.key, label, error);
  }
  const decoder = new TextDecoder('utf-8');
  const texts = new Map<string, string>();
  for (const [name, data] of Object.entries(unpacked)) texts.set(name, decoder.decode(data));
  return texts;
}
