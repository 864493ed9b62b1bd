import { randomFillSync, randomUUID } from 'node:crypto';
import { encodeTime, monotonicFactory } from 'ulidx';

/**
 * Uniform numbers in [0, 1) from the system's CSPRNG, drawn 4 KiB at a time: ulidx asks for one per
 * character, and one `getRandomValues` call per character was a visible share of indexing's main thread.
 */
const randomPool = new Uint32Array(1024);
let randomNext = randomPool.length;
function pooledRandom(): number {
  if (randomNext === randomPool.length) {
    randomFillSync(randomPool);
    randomNext = 0;
  }
  return (randomPool[randomNext++] as number) / 4_294_967_296;
}

const ulid = monotonicFactory(pooledRandom);

/** Random bytes from the system's CSPRNG, drawn 4 KiB at a time (a `randomBytes` call per id was ~2% of a chat POST). */
const bytePool = Buffer.alloc(4096);
let byteNext = bytePool.length;
/** `n` (≤ 4096) fresh random bytes, each handed out once; valid until the next call. */
function pooledBytes(n: number): Buffer {
  if (byteNext + n > bytePool.length) {
    randomFillSync(bytePool);
    byteNext = 0;
  }
  const bytes = bytePool.subarray(byteNext, byteNext + n);
  byteNext += n;
  return bytes;
}

/** A request's id: `req_` and 20 hex digits (80 random bits). */
export function newRequestId(): string {
  return `req_${pooledBytes(10).toString('hex')}`;
}

/** A new ULID (time-sortable; monotonic within this process). */
export function newUlid(): string {
  return ulid();
}

/** Prefixes of the sortable ids the service hands out. */
export type IdPrefix =
  | 'wkspace'
  | 'user'
  | 'member'
  | 'tok'
  | 'int'
  | 'audit'
  | 'log'
  | 'inv'
  | 'file'
  | 'job'
  | 'kb'
  | 'src'
  | 'cuser'
  | 'conv'
  | 'msg'
  | 'evt'
  | 'whevt'
  | 'sess'
  | 'qa'
  | 'note';

/** A new prefixed, time-sortable id such as `wkspace_01K86…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A new prefixed id that no other id tells: a ULID whose 16-character random part is 80 fresh bits from
 * `crypto.randomBytes` (a `newId` made in the same millisecond as another is that id's random part plus
 * one). For ids that work as capabilities, like a bot message's id in its source links. Sorts by time to
 * the millisecond; {@link nextId} makes ids that sort right after it.
 */
export function newSecretId(prefix: IdPrefix): string {
  const bytes = pooledBytes(10);
  // 80 bits as 16 base-32 digits, most significant first: two halves of 5 bytes (40 bits, 8 digits) each.
  let random = '';
  for (const half of [0, 5]) {
    let bits = 0;
    for (let i = half; i < half + 5; i++) bits = bits * 256 + (bytes[i] as number);
    let digits = '';
    for (let i = 0; i < 8; i++) {
      digits = CROCKFORD.charAt(bits % 32) + digits;
      bits = Math.floor(bits / 32);
    }
    random += digits;
  }
  return `${prefix}_${encodeTime(Date.now(), 10)}${random}`;
}

/**
 * The id that sorts right after `id` (its last base-32 digits incremented), for a batch of ids made
 * from one {@link newSecretId}.
 * @example nextId('msg_01K86ZZ') // 'msg_01K8700'
 */
export function nextId(id: string): string {
  const cut = id.indexOf('_') + 1;
  const digits = [...id.slice(cut)];
  for (let i = digits.length - 1; i >= 0; i--) {
    const at = CROCKFORD.indexOf(digits[i] ?? '');
    if (at < 0) throw new Error(`not a base-32 id: ${id}`);
    if (at < 31) {
      digits[i] = CROCKFORD.charAt(at + 1);
      return id.slice(0, cut) + digits.join('');
    }
    digits[i] = '0';
  }
  throw new Error(`no id after ${id}`);
}

/** A new bot id (UUID-like, as the public service uses). */
export function newBotId(): string {
  return randomUUID();
}
