/**
 * How deep JSON values nest, measured without recursion (a value nested a million levels deep must not
 * overflow the stack of whoever checks it), and for JSON text without parsing it.
 */

/** Levels of a too-deep path the scan names (`data.a.b.c`): enough to find the field, bounded in memory. */
const NAMED_LEVELS = 4;
/** Bytes of a key the scan keeps to name it. */
const KEY_BYTES = 200;

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

/** One of the first {@link NAMED_LEVELS} open containers: an object and its current key, or an array and its index. */
interface Level {
  array: boolean;
  /** The object's current key (its raw bytes, escapes as sent), or the array's index. */
  key: number[] | number;
  /** An object expects a key next (after `{` or `,`). */
  expectsKey: boolean;
}

/** A key as JSON text spelled it (escapes resolved when they can be), for an error message. */
function keyText(raw: number[]): string {
  const text = Buffer.from(raw).toString('utf8');
  if (!text.includes('\\')) return text;
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text; // cut inside an escape
  }
}

/**
 * Scans JSON text chunk by chunk as it arrives, without parsing it: how deep objects and arrays nest
 * (brackets inside strings skipped) and the path to the first one nested deeper than `maxDepth` (the
 * value itself is level 1), named by keys and array indexes from the top. Works on UTF-8 bytes: every
 * byte of a multi-byte character is ≥ 0x80, so none is taken for a bracket, quote or backslash, and a
 * chunk may end anywhere. Costs one pass and memory for the first few levels only, whatever the input.
 * @example const scan = new JsonScan(64); for (const chunk of chunks) if (!scan.write(chunk)) break;
 */
export class JsonScan {
  /** The deepest nesting seen so far. */
  deepest = 0;
  /** The path to the first object or array nested deeper than `maxDepth`, once one is seen. */
  tooDeep: string[] | undefined;
  /**
   * Values seen so far, approximately (objects, arrays and separating commas, outside strings): what
   * parsing the text costs, which grows with its values, not its bytes.
   */
  values = 1;
  /** Set once more than `maxValues` values are seen. */
  tooManyValues = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private readonly levels: Level[] = [];
  /** The bytes of the key being read, when a string is a key of a named level. */
  private key: number[] | undefined;

  constructor(
    private readonly maxDepth: number,
    private readonly maxValues = Number.POSITIVE_INFINITY,
  ) {}

  /**
   * Scans the next bytes; false once a value nests deeper than `maxDepth` (see `tooDeep`) or the text
   * holds more than `maxValues` values (see `tooManyValues`).
   */
  write(chunk: Uint8Array): boolean {
    if (this.tooDeep || this.tooManyValues) return false;
    const levels = this.levels;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as number;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          this.key = undefined;
          continue;
        }
        if (this.key && this.key.length < KEY_BYTES) this.key.push(c);
      } else if (c === QUOTE) {
        this.inString = true;
        const level = levels[this.depth - 1];
        if (level?.expectsKey) {
          level.expectsKey = false;
          this.key = [];
          level.key = this.key;
        }
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (++this.values > this.maxValues) {
          this.tooManyValues = true;
          return false;
        }
        this.depth++;
        if (this.depth > this.deepest) this.deepest = this.depth;
        if (this.depth > this.maxDepth) {
          this.tooDeep = levels.map((l) => (typeof l.key === 'number' ? String(l.key) : keyText(l.key)));
          return false;
        }
        if (this.depth <= NAMED_LEVELS)
          levels.push({
            array: c === OPEN_ARRAY,
            key: c === OPEN_ARRAY ? 0 : [],
            expectsKey: c !== OPEN_ARRAY,
          });
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (this.depth <= NAMED_LEVELS) levels.pop();
        this.depth--;
      } else if (c === COMMA) {
        if (++this.values > this.maxValues) {
          this.tooManyValues = true;
          return false;
        }
        const level = levels[this.depth - 1];
        if (level) {
          if (level.array) level.key = (level.key as number) + 1;
          else level.expectsKey = true;
        }
      } else if (c === COLON) {
        const level = levels[this.depth - 1];
        if (level) level.expectsKey = false;
      }
    }
    return true;
  }
}

/**
 * The path (keys from the top, after `prefix`) to the first object or array nested deeper than `maxDepth`
 * (the value itself is level 1), or undefined when none is.
 */
export function pathTooDeep(value: unknown, maxDepth: number, prefix: string[] = []): string[] | undefined {
  const stack: Array<{ value: unknown; path: string[]; depth: number }> = [{ value, path: prefix, depth: 1 }];
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number];
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth > maxDepth) return item.path;
    for (const [key, child] of Object.entries(item.value)) {
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, path: [...item.path, key], depth: item.depth + 1 });
    }
  }
  return undefined;
}
