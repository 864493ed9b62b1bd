import { isUtf8 } from 'node:buffer';

/**
 * How many bytes at the end of `bytes` begin a UTF-8 sequence that goes on in the next chunk (0–3). Three
 * continuation bytes at the end are left to `isUtf8`: they end a four-byte sequence or are invalid.
 */
function unfinishedTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/** A stream of bytes passed through unchanged, and whether all of them, once read to the end, are valid UTF-8. */
export interface Utf8Watch {
  body: AsyncIterable<Uint8Array>;
  /** True only when the body was read to its end and every byte sequence in it is valid UTF-8. */
  valid(): boolean;
}

/**
 * Watches `body` for valid UTF-8 while it is read (simdutf through `isUtf8`, no decoding), carrying a
 * sequence split between two chunks over to the next.
 * @example const watch = watchUtf8(req.raw); await blobs.put(key, watch.body, opts); watch.valid()
 */
export function watchUtf8(body: AsyncIterable<Uint8Array>): Utf8Watch {
  let valid = true;
  let ended = false;
  async function* pass(): AsyncIterable<Uint8Array> {
    let carry: Uint8Array = new Uint8Array(0);
    for await (const chunk of body) {
      if (valid) {
        const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
        const whole = bytes.length - unfinishedTail(bytes);
        valid = isUtf8(bytes.subarray(0, whole));
        carry = Uint8Array.from(bytes.subarray(whole));
      }
      yield chunk;
    }
    if (carry.length > 0) valid = false;
    ended = true;
  }
  return { body: pass(), valid: () => ended && valid };
}
