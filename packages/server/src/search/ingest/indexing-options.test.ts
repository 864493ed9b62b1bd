import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_OPTIONS } from '../types.js';
import { ChunkOptionsError } from './chunk-options.js';
import { CHARS_PER_TOKEN, indexingOptionsFrom } from './indexing-options.js';

const defaults = { chunk: DEFAULT_CHUNK_OPTIONS, embedBreadcrumb: true };

/** The issues indexingOptionsFrom refuses `configuration` with. */
function refused(configuration: unknown): { field: string; message: string }[] {
  try {
    indexingOptionsFrom(configuration);
  } catch (error) {
    expect(error).toBeInstanceOf(ChunkOptionsError);
    return (error as ChunkOptionsError).issues;
  }
  throw new Error(`accepted ${JSON.stringify(configuration)}`);
}

describe("a file's indexing configuration", () => {
  it('defaults to 120-token passages with 20 of overlap, breadcrumbs embedded', () => {
    expect(indexingOptionsFrom(undefined)).toEqual(defaults);
    expect(indexingOptionsFrom(null)).toEqual(defaults);
    expect(indexingOptionsFrom({})).toEqual(defaults);
    expect(indexingOptionsFrom({ chunking: {}, parsing: null, summarization: {} })).toEqual(defaults);
  });

  describe("Parley's own chunking options", () => {
    it.each([
      ['reads maxTokens and overlapTokens', { maxTokens: 200, overlapTokens: 40 }, 200, 40],
      ['keeps the default overlap beside a maxTokens', { maxTokens: 400 }, 400, 20],
      ['keeps the default maxTokens beside an overlap', { overlapTokens: 0 }, 120, 0],
      ['lowers the default overlap below half of a small maxTokens', { maxTokens: 16 }, 16, 7],
    ])('%s', (_, chunking, maxTokens, overlapTokens) => {
      expect(indexingOptionsFrom({ chunking }).chunk).toEqual({ maxTokens, overlapTokens });
    });

    it.each([
      ['maxTokens below 16', { maxTokens: 15 }, 'maxTokens', /must be an integer from 16 to 2000 \(got 15\)/],
      ['maxTokens above 2000', { maxTokens: 2001 }, 'maxTokens', /from 16 to 2000/],
      ['a fractional maxTokens', { maxTokens: 100.5 }, 'maxTokens', /must be an integer/],
      ['a string maxTokens', { maxTokens: '100' }, 'maxTokens', /\(got "100"\)/],
      ['an overlap of half', { maxTokens: 100, overlapTokens: 50 }, 'overlapTokens', /at most 49/],
      ['a negative overlap', { overlapTokens: -1 }, 'overlapTokens', /must be an integer from 0/],
    ])('refuses %s, naming the field', (_, chunking, field, message) => {
      const issues = refused({ chunking });
      expect(issues).toEqual([
        { field: `indexing.configuration.chunking.${field}`, message: expect.stringMatching(message) },
      ]);
    });
  });

  describe("the public service's options Parley maps", () => {
    it.each([
      [{ maximumChunkLength: 600 }, 100, 20],
      [{ maximumChunkLength: 200 }, 33, 16],
      [{ maximumChunkLength: 96 }, 16, 7],
      [{ maximumChunkLength: 12_000 }, 2000, 20],
      [{ maximumChunkLength: 1200, overlapTokens: 0 }, 200, 0],
    ])(
      `turns chunking %o (characters) into maxTokens at ${CHARS_PER_TOKEN} characters a token: %i, overlap %i`,
      (chunking, maxTokens, overlapTokens) => {
        expect(indexingOptionsFrom({ chunking }).chunk).toEqual({ maxTokens, overlapTokens });
      },
    );

    it('refuses a maximumChunkLength out of bounds, or given with maxTokens', () => {
      for (const value of [95, 12_001, 500.5, '500']) {
        expect(refused({ chunking: { maximumChunkLength: value } })).toEqual([
          {
            field: 'indexing.configuration.chunking.maximumChunkLength',
            message: expect.stringContaining('must be an integer from 96 to 12000 (characters)'),
          },
        ]);
      }
      expect(refused({ chunking: { maximumChunkLength: 600, maxTokens: 100 } })).toEqual([
        {
          field: 'indexing.configuration.chunking.maximumChunkLength',
          message: expect.stringContaining('cannot be combined with chunking.maxTokens'),
        },
      ]);
    });

    it('reads chunking.embedBreadcrumb: false as embedding passages without their headings', () => {
      expect(indexingOptionsFrom({ chunking: { embedBreadcrumb: false } })).toEqual({
        ...defaults,
        embedBreadcrumb: false,
      });
      expect(indexingOptionsFrom({ chunking: { embedBreadcrumb: true } })).toEqual(defaults);
      expect(refused({ chunking: { embedBreadcrumb: 'no' } })).toEqual([
        {
          field: 'indexing.configuration.chunking.embedBreadcrumb',
          message: expect.stringContaining('true or false'),
        },
      ]);
    });

    it('reads parsing.minimumParagraphLength as the characters below which a paragraph joins the next block', () => {
      expect(indexingOptionsFrom({ parsing: { minimumParagraphLength: 80 } }).chunk).toEqual({
        ...DEFAULT_CHUNK_OPTIONS,
        minParagraphChars: 80,
      });
      expect(indexingOptionsFrom({ parsing: { minimumParagraphLength: 0 } })).toEqual(defaults);
      for (const value of [-1, 10_001, 2.5]) {
        expect(refused({ parsing: { minimumParagraphLength: value } })).toEqual([
          {
            field: 'indexing.configuration.parsing.minimumParagraphLength',
            message: expect.stringContaining('must be an integer from 0 to 10000 (characters)'),
          },
        ]);
      }
    });

    it('accepts parsing.mode "standard", what Parley does', () => {
      expect(indexingOptionsFrom({ parsing: { mode: 'standard' } })).toEqual(defaults);
      expect(refused({ parsing: { mode: 'fast' } })).toEqual([
        {
          field: 'indexing.configuration.parsing.mode',
          message: 'must be "standard" or "agent" (got "fast").',
        },
      ]);
    });

    it('accepts the settings of summaries, which are off, when their values are valid', () => {
      const summarization = {
        enable: false,
        generateMasterSummary: false,
        modelType: 'balanced',
        minimumInputLength: 100,
        outputTokenLimit: 250,
      };
      expect(indexingOptionsFrom({ summarization })).toEqual(defaults);
      expect(
        refused({ summarization: { modelType: 'cheap', outputTokenLimit: -5 } }).map((i) => i.field),
      ).toEqual([
        'indexing.configuration.summarization.modelType',
        'indexing.configuration.summarization.outputTokenLimit',
      ]);
    });
  });

  describe("the public service's options Parley has no counterpart for", () => {
    it.each([
      ['parsing.mode', { parsing: { mode: 'agent' } }, 'omit it or set it to "standard"'],
      ['parsing.smartCleanup', { parsing: { smartCleanup: true } }, 'omit it or set it to false'],
      [
        'chunking.embeddedContextLevels',
        { chunking: { embeddedContextLevels: 2 } },
        'omit it or set it to 0',
      ],
      ['summarization.enable', { summarization: { enable: true } }, 'omit it or set it to false'],
      [
        'summarization.generateMasterSummary',
        { summarization: { generateMasterSummary: true } },
        'omit it or set it to false',
      ],
      ['stack', { stack: 'realtime-v1' }, 'omit it.'],
      ['stack', { stack: 'legacy' }, 'omit it.'],
      ['vision.transcribePages', { vision: { transcribePages: true } }, 'omit it or set it to false'],
      ['vision.indexPages', { vision: { indexPages: [1, 2] } }, 'omit it or set it to false'],
    ])('refuses %s turned on, saying Parley does not support it', (field, configuration, how) => {
      expect(refused(configuration)).toEqual([
        {
          field: `indexing.configuration.${field}`,
          message: expect.stringMatching(/^is not supported by Parley \(.+\); /),
        },
      ]);
      expect(refused(configuration)[0]?.message).toContain(how);
    });

    it('accepts them turned off', () => {
      const off = {
        parsing: { mode: 'standard', smartCleanup: false },
        chunking: { embeddedContextLevels: 0 },
        summarization: { enable: false, generateMasterSummary: false },
        vision: { transcribePages: false, indexPages: [] },
      };
      expect(indexingOptionsFrom(off)).toEqual(defaults);
    });

    it('refuses values of the wrong type, naming the field', () => {
      expect(refused({ parsing: { smartCleanup: 'yes' } })[0]?.message).toContain('must be true or false');
      expect(refused({ chunking: { embeddedContextLevels: -1 } })[0]?.message).toContain(
        'non-negative integer',
      );
      expect(refused({ vision: { indexPages: 'all' } })[0]?.message).toContain('an array of page numbers');
      expect(refused({ stack: 'v2' })[0]?.message).toBe('must be "legacy" or "realtime-v1" (got "v2").');
    });
  });

  describe('its shape', () => {
    it('refuses a configuration or a section that is not an object', () => {
      expect(refused('fast')).toEqual([{ field: 'indexing.configuration', message: 'must be an object.' }]);
      expect(refused({ chunking: [1] })).toEqual([
        { field: 'indexing.configuration.chunking', message: 'must be an object.' },
      ]);
    });

    it('refuses unknown keys at any level, naming each and the known ones', () => {
      expect(refused({ chunking: { maxToken: 100 }, other: { x: 1 } })).toEqual([
        {
          field: 'indexing.configuration.chunking.maxToken',
          message:
            'is not an option Parley knows; known here: maxTokens, overlapTokens, maximumChunkLength, embeddedContextLevels, embedBreadcrumb.',
        },
        {
          field: 'indexing.configuration.other',
          message:
            'is not an option Parley knows; known here: parsing, chunking, summarization, stack, vision.',
        },
      ]);
      // As JSON bodies arrive: "__proto__" an own key, not the prototype.
      const inherited = JSON.parse('{"__proto__": 1, "parsing": {"toString": true}}');
      expect(refused(inherited).map((i) => i.field)).toEqual([
        'indexing.configuration.__proto__',
        'indexing.configuration.parsing.toString',
      ]);
    });

    it('lists every refused field at once, and says them all in its message', () => {
      const configuration = {
        parsing: { mode: 'agent' },
        chunking: { maximumChunkLength: 10 },
        summarization: { enable: true },
      };
      expect(refused(configuration).map((i) => i.field)).toEqual([
        'indexing.configuration.parsing.mode',
        'indexing.configuration.chunking.maximumChunkLength',
        'indexing.configuration.summarization.enable',
      ]);
      expect(() => indexingOptionsFrom(configuration)).toThrow(
        /parsing\.mode is not supported.*; indexing\.configuration\.chunking\.maximumChunkLength must be .*; indexing\.configuration\.summarization\.enable is not supported/,
      );
    });
  });
});
