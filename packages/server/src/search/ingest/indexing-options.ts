/**
 * A file's `indexing.configuration` (upsertFile) as Parley's indexing understands it: Parley's own
 * `chunking.maxTokens` / `overlapTokens`, and the public service's options mapped onto the chunker and the
 * embedder where Parley has a counterpart, refused (naming the field) where it has none. A value that turns
 * an option off (`false`, `0`, `[]`) is accepted. Unknown keys are refused. The same function checks the
 * configuration at upsert (a 400 there) and reads it when the file is indexed.
 */

import type { ChunkOptions } from '../types.js';
import {
  ChunkOptionsError,
  type ChunkOptionsIssue,
  integerRule,
  MAX_TOKENS_RANGE,
  MIN_PARAGRAPH_CHARS_RANGE,
  validChunkOptions,
} from './chunk-options.js';

/**
 * Characters per chunking token assumed when `chunking.maximumChunkLength` (characters) becomes
 * `maxTokens`: English prose averages 5.3–5.7 characters per token as the chunker counts them (words and
 * punctuation marks), 6 is near the 90th percentile of its passages, so most passages stay within the limit.
 */
export const CHARS_PER_TOKEN = 6;

/** Bounds of `chunking.maximumChunkLength`, in characters: those of maxTokens, converted. */
export const MAXIMUM_CHUNK_LENGTH_RANGE = {
  min: MAX_TOKENS_RANGE.min * CHARS_PER_TOKEN,
  max: MAX_TOKENS_RANGE.max * CHARS_PER_TOKEN,
} as const;

/** What indexing a file does, from its configuration. */
export interface IndexingOptions {
  /** How the document is cut into passages. */
  chunk: ChunkOptions;
  /** Whether a passage's headings (its breadcrumb) are embedded with its content; default true. */
  embedBreadcrumb: boolean;
}

const PREFIX = 'indexing.configuration';

/** Checks one option's value: the rule it breaks (a message after the field's name), or undefined. */
type Check = (value: unknown) => string | undefined;

const show = (value: unknown) => JSON.stringify(value) ?? String(value);

/** Refusal of an option Parley has no counterpart for. */
const unsupported = (why: string, off?: string) =>
  `is not supported by Parley (${why}); omit it${off === undefined ? '' : ` or set it to ${off}`}.`;

/** A boolean; `true` refused with `refusal` when given. */
const boolean =
  (refusal?: string): Check =>
  (value) => {
    if (typeof value !== 'boolean') return `must be true or false (got ${show(value)}).`;
    return value && refusal !== undefined ? refusal : undefined;
  };

/** One of `allowed`; the values of `refused` are valid in the public service but refused here. */
const oneOf =
  (allowed: readonly string[], refused: Record<string, string> = {}): Check =>
  (value) => {
    if (typeof value === 'string' && allowed.includes(value)) return undefined;
    if (typeof value === 'string' && Object.hasOwn(refused, value)) return refused[value];
    const all = [...allowed, ...Object.keys(refused)].map((v) => `"${v}"`).join(' or ');
    return `must be ${all} (got ${show(value)}).`;
  };

const integer =
  (min: number, max: number, rule: string): Check =>
  (value) =>
    integerRule(value, min, max, rule);

/** A count whose only supported value is 0. */
const zeroOnly =
  (refusal: string): Check =>
  (value) =>
    integerRule(value, 0, Number.MAX_SAFE_INTEGER, 'a non-negative integer') ??
    (value === 0 ? undefined : refusal);

/** Vision page selections: `true` or page numbers in the public service; only off (false, []) here. */
const pagesOff =
  (refusal: string): Check =>
  (value) => {
    if (value === false || (Array.isArray(value) && value.length === 0)) return undefined;
    if (value === true || (Array.isArray(value) && value.every((page) => Number.isInteger(page))))
      return refusal;
    return `must be true, false or an array of page numbers (got ${show(value)}).`;
  };

/** Accepted as given: a Parley option checked with the others by validChunkOptions. */
const checkedLater: Check = () => undefined;

const anyCount = integer(0, Number.MAX_SAFE_INTEGER, 'a non-negative integer');

/** Every option of indexing.configuration Parley knows, by section (`stack` stands alone). */
const OPTIONS: Record<string, Record<string, Check> | Check> = {
  parsing: {
    mode: oneOf(['standard'], {
      agent: unsupported('it has one parser, the one "standard" names, and no agentic parsing', '"standard"'),
    }),
    minimumParagraphLength: integer(
      MIN_PARAGRAPH_CHARS_RANGE.min,
      MIN_PARAGRAPH_CHARS_RANGE.max,
      `an integer from ${MIN_PARAGRAPH_CHARS_RANGE.min} to ${MIN_PARAGRAPH_CHARS_RANGE.max} (characters)`,
    ),
    smartCleanup: boolean(unsupported('no language model rewrites the extracted text', 'false')),
  },
  chunking: {
    maxTokens: checkedLater,
    overlapTokens: checkedLater,
    maximumChunkLength: integer(
      MAXIMUM_CHUNK_LENGTH_RANGE.min,
      MAXIMUM_CHUNK_LENGTH_RANGE.max,
      `an integer from ${MAXIMUM_CHUNK_LENGTH_RANGE.min} to ${MAXIMUM_CHUNK_LENGTH_RANGE.max} (characters)`,
    ),
    embeddedContextLevels: zeroOnly(
      unsupported(
        "a passage is embedded without its neighbours; searchFiles' contextDepth returns them at search time",
        '0',
      ),
    ),
    embedBreadcrumb: boolean(),
  },
  summarization: {
    enable: boolean(unsupported('it generates no summaries', 'false')),
    generateMasterSummary: boolean(unsupported('it generates no summaries', 'false')),
    // Settings of summaries, which are off: valid values change nothing.
    modelType: oneOf(['inexpensive', 'balanced', 'accurate']),
    minimumInputLength: anyCount,
    outputTokenLimit: anyCount,
  },
  stack: oneOf([], {
    legacy: unsupported('it has a single indexing pipeline'),
    'realtime-v1': unsupported('it has a single indexing pipeline'),
  }),
  vision: {
    transcribePages: pagesOff(unsupported('no vision model reads page images', 'false')),
    indexPages: pagesOff(unsupported('no vision model reads page images', 'false')),
  },
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const absent = (value: unknown) => value === undefined || value === null;

/** The issue of an unknown key, naming the known ones. */
function unknownKey(field: string, known: readonly string[]): ChunkOptionsIssue {
  return { field, message: `is not an option Parley knows; known here: ${known.join(', ')}.` };
}

/** Issues of the configuration's shape and of each option's value (null counts as absent). */
function shapeIssues(configuration: Record<string, unknown>): ChunkOptionsIssue[] {
  const issues: ChunkOptionsIssue[] = [];
  for (const [name, value] of Object.entries(configuration)) {
    const field = `${PREFIX}.${name}`;
    const spec = Object.hasOwn(OPTIONS, name) ? OPTIONS[name] : undefined;
    if (spec === undefined) issues.push(unknownKey(field, Object.keys(OPTIONS)));
    else if (absent(value)) continue;
    else if (typeof spec === 'function') {
      const broken = spec(value);
      if (broken !== undefined) issues.push({ field, message: broken });
    } else if (!isObject(value)) issues.push({ field, message: 'must be an object.' });
    else {
      for (const [key, inner] of Object.entries(value)) {
        const check = Object.hasOwn(spec, key) ? spec[key] : undefined;
        if (check === undefined) issues.push(unknownKey(`${field}.${key}`, Object.keys(spec)));
        else if (!absent(inner)) {
          const broken = check(inner);
          if (broken !== undefined) issues.push({ field: `${field}.${key}`, message: broken });
        }
      }
    }
  }
  return issues;
}

/** The section `name` of a configuration whose shape was checked, or an empty one. */
function section(configuration: Record<string, unknown>, name: string): Record<string, unknown> {
  const value = configuration[name];
  return isObject(value) ? value : {};
}

/**
 * What indexing a file does, from its `indexing.configuration` (absent or null: the defaults). Throws
 * ChunkOptionsError listing every field it refuses, each by its full path (`indexing.configuration.
 * summarization.enable`): an unknown key, a value of the wrong type or out of bounds, an option Parley does
 * not support turned on, or both `chunking.maxTokens` and `chunking.maximumChunkLength`.
 *
 * Mapped: `chunking.maxTokens`, `overlapTokens` (Parley's own); `chunking.maximumChunkLength` (characters)
 * as maxTokens ⌊length / 6⌋; `parsing.minimumParagraphLength` (characters: a shorter paragraph is joined to
 * the block after it); `chunking.embedBreadcrumb` (false: the passage's headings are not embedded with it);
 * `parsing.mode: "standard"`. Accepted when off only: `parsing.smartCleanup`, `chunking.embeddedContextLevels`,
 * `summarization.enable`, `summarization.generateMasterSummary`, `vision.*`; never: `stack`.
 *
 * @example
 * indexingOptionsFrom({ chunking: { maximumChunkLength: 600, embedBreadcrumb: false } });
 * // { chunk: { maxTokens: 100, overlapTokens: 20 }, embedBreadcrumb: false }
 */
export function indexingOptionsFrom(configuration: unknown): IndexingOptions {
  if (absent(configuration)) return { chunk: validChunk({}, []), embedBreadcrumb: true };
  if (!isObject(configuration))
    throw new ChunkOptionsError([{ field: PREFIX, message: 'must be an object.' }]);
  const issues = shapeIssues(configuration);
  const chunking = section(configuration, 'chunking');
  const parsing = section(configuration, 'parsing');
  const length = chunking.maximumChunkLength;
  if (!absent(length) && !absent(chunking.maxTokens)) {
    issues.push({
      field: `${PREFIX}.chunking.maximumChunkLength`,
      message: 'cannot be combined with chunking.maxTokens; give one of them.',
    });
  }
  if (issues.length > 0) throw new ChunkOptionsError(issues);
  const maxTokens = typeof length === 'number' ? Math.floor(length / CHARS_PER_TOKEN) : chunking.maxTokens;
  const chunk = validChunk(
    { maxTokens, overlapTokens: chunking.overlapTokens, minParagraphChars: parsing.minimumParagraphLength },
    issues,
  );
  if (issues.length > 0) throw new ChunkOptionsError(issues);
  return { chunk, embedBreadcrumb: chunking.embedBreadcrumb !== false };
}

/** validChunkOptions with the configuration's field names; its issue lands in `issues`. */
function validChunk(
  raw: { maxTokens?: unknown; overlapTokens?: unknown; minParagraphChars?: unknown },
  issues: ChunkOptionsIssue[],
): ChunkOptions {
  try {
    return validChunkOptions(raw, {
      maxTokens: `${PREFIX}.chunking.maxTokens`,
      overlapTokens: `${PREFIX}.chunking.overlapTokens`,
      minParagraphChars: `${PREFIX}.parsing.minimumParagraphLength`,
    });
  } catch (error) {
    if (!(error instanceof ChunkOptionsError)) throw error;
    issues.push(...error.issues);
    return { maxTokens: 0, overlapTokens: 0 };
  }
}
