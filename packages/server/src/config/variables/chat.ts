import Type from 'typebox';

/** The chat model that writes knowledge answers, and the Chat API: live streams, replies and webhooks. */
export const CHAT_VARIABLES = {
  PARLEY_CHAT_MODEL_URL: Type.Optional(
    Type.String({
      pattern: '^https?://\\S+$',
      description:
        'OpenAI-compatible chat completions service (e.g. `http://127.0.0.1:11434/v1`): knowledge answers are written from the passages found, citing them, and a question the bot is unsure of is answered by it from the best passages or gets the "not found" reply; unset: bots answer with the passages',
      'x-accepts': 'http(s) URL',
      'x-invalid': '"{value}" must be an http(s) URL',
    }),
  ),
  PARLEY_CHAT_MODEL: Type.Optional(
    Type.String({ description: "the chat model's name (required with `PARLEY_CHAT_MODEL_URL`)" }),
  ),
  PARLEY_CHAT_MODEL_API_KEY: Type.Optional(
    Type.String({
      description: "the chat model's API key, sent as a Bearer token (optional for local services)",
    }),
  ),
  PARLEY_CHAT_MODEL_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 600_000,
    default: 60_000,
    description:
      'time bound of one chat model call, in milliseconds; on failure or timeout the bot answers with the passages (an unsure question: asks back, or says it found nothing)',
  }),
  PARLEY_CHAT_PING_INTERVAL_MS: Type.Integer({
    minimum: 10,
    maximum: 3_600_000,
    default: 30_000,
    description: 'milliseconds between pings on a Chat API live stream',
  }),
  PARLEY_CHAT_SIGNAL_RETENTION_HOURS: Type.Integer({
    minimum: 1,
    maximum: 24 * 365,
    default: 24,
    description: 'hours the signals of live streams are kept for resuming with `Last-Event-ID`',
  }),
  PARLEY_CHAT_WEBHOOK_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 600_000,
    default: 10_000,
    description: 'time bound of one webhook POST to a webhook-mode bot, in milliseconds',
  }),
  PARLEY_CHAT_WEBHOOK_MAX_ATTEMPTS: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 5,
    description:
      'attempts of a webhook delivery before giving up (retried with backoff on network errors, 429 and 5xx)',
  }),
  PARLEY_CHAT_REPLY_TIMEOUT_MS: Type.Integer({
    minimum: 100,
    maximum: 3_600_000,
    default: 120_000,
    description: 'time bound of one knowledge reply attempt, in milliseconds',
  }),
  PARLEY_CHAT_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 256,
    default: 4,
    description: 'chat jobs (bot replies, webhooks) run at once by each process, apart from indexing',
  }),
  PARLEY_CHAT_MAX_STREAMS_PER_USER: Type.Integer({
    minimum: 1,
    maximum: 10_000,
    default: 10,
    description:
      'live streams (`…/listen`) one chat user may hold open on a bot, in each process; one more answers 429 `RateLimited`',
  }),
  PARLEY_CHAT_MAX_STREAMS_PER_BOT: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 2000,
    description:
      'live streams a bot may have open in each process (bot key and adminKey streams included); one more answers 429',
  }),
  PARLEY_CHAT_STREAM_BUFFER_BYTES: Type.Integer({
    minimum: 1024,
    maximum: 1024 ** 3,
    default: 256 * 1024,
    description:
      "bytes that may wait for a live stream's reader; past them the stream stops reading signals until the reader catches up (nothing is lost: signals are stored)",
  }),
  PARLEY_CHAT_STREAM_STALL_MS: Type.Integer({
    minimum: 100,
    maximum: 3_600_000,
    default: 30_000,
    description:
      'a stream whose reader takes nothing for this many milliseconds is dropped; its client reconnects with `Last-Event-ID` and receives every signal it missed',
  }),
  PARLEY_CHAT_STREAM_TOTAL_BUFFER_BYTES: Type.Integer({
    minimum: 1024 * 1024,
    maximum: 64 * 1024 ** 3,
    default: 64 * 1024 * 1024,
    description:
      'bytes all waiting streams of a process may hold together; past them a stream that has to wait is dropped at once',
  }),
  PARLEY_CHAT_MAX_FILES_PER_USER: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 20,
    description:
      'files one chat user may hold on a bot through the Chat API (uploaded, or waiting for an upload that may still arrive); one more answers 403 `QuotaExceeded`',
  }),
  PARLEY_CHAT_MAX_FILE_BYTES_PER_USER: Type.Integer({
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    default: 100 * 1024 * 1024,
    description:
      'bytes one chat user may hold on a bot through the Chat API, declared sizes of pending uploads included (403 `QuotaExceeded` beyond)',
  }),
  PARLEY_WEBHOOK_BLOCK_PRIVATE_ADDRESSES: Type.Boolean({
    default: false,
    description:
      '`true`: webhooks may not reach loopback, private (RFC 1918, unique local), link-local (cloud metadata), CGNAT, multicast or reserved addresses, checked on the address actually connected to; turn on when people you do not trust can set webhook URLs',
  }),
};
