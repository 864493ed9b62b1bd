// A stand-in for the model services a deployment calls out to (an OpenAI-compatible embeddings service and chat
// model), for the cluster tests: each process gets its own base URL (`/p<index>/v1`), so the stand-in knows which
// process asked, and a test can hold a request (the process is then busy with that job) until it releases it.
import { createHash } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './waiters.js';

/** Width of the stand-in's vectors. */
export const STAND_IN_DIMENSIONS = 64;

/** A deterministic bag-of-words vector of `text` (hashed words, L2-normalised): similar words, similar vectors. */
export function standInVector(text: string): number[] {
  const vector = new Float64Array(STAND_IN_DIMENSIONS);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const hash = createHash('sha256').update(word).digest();
    const at = (hash[0] ?? 0) % STAND_IN_DIMENSIONS;
    vector[at] = (vector[at] ?? 0) + ((hash[1] ?? 0) & 1 ? 1 : -1);
  }
  const norm = Math.hypot(...vector) || 1;
  return Array.from(vector, (v) => v / norm);
}

/** What the stand-in was asked. */
export interface StandInRequest {
  kind: 'embeddings' | 'chat';
  /** The process index in the URL it was called on. */
  process: number;
  /** The texts to embed, or the chat messages' contents. */
  texts: string[];
}

/** A request the stand-in is holding: it answers when released, or never if the caller went away first. */
interface Held {
  request: StandInRequest;
  answer: () => void;
  closed: boolean;
}

/** The stand-in's answer to the chat model: names the process, so a test sees which one wrote a reply. */
export function standInAnswer(process: number): string {
  return `The stand-in model answers for process ${process}: 25 days of paid vacation.`;
}

/** Starts the stand-in on loopback. */
export async function startStandInModels() {
  const requests: StandInRequest[] = [];
  const held: Held[] = [];
  let hold: ((request: StandInRequest) => boolean) | undefined;
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };

  function answerEmbeddings(res: ServerResponse, texts: string[], model: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        object: 'list',
        model,
        data: texts.map((text, index) => ({ object: 'embedding', index, embedding: standInVector(text) })),
        usage: { prompt_tokens: 0, total_tokens: 0 },
      }),
    );
  }

  function answerChat(res: ServerResponse, process: number, stream: boolean): void {
    const content = standInAnswer(process);
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-stand-in',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const piece of content.split(/(?<= )/)) {
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}\n\n`);
    }
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const match = req.url?.match(/^\/p(\d+)\/v1\/(embeddings|chat\/completions)$/);
      if (req.method !== 'POST' || !match) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        input?: string | string[];
        model?: string;
        stream?: boolean;
        messages?: Array<{ content: string }>;
      };
      const process = Number(match[1]);
      const kind = match[2] === 'embeddings' ? 'embeddings' : 'chat';
      const texts =
        kind === 'embeddings'
          ? typeof body.input === 'string'
            ? [body.input]
            : (body.input ?? [])
          : (body.messages ?? []).map((m) => m.content);
      const request: StandInRequest = { kind, process, texts };
      requests.push(request);
      const answer = () =>
        kind === 'embeddings'
          ? answerEmbeddings(res, texts, body.model)
          : answerChat(res, process, body.stream === true);
      if (hold?.(request)) {
        const entry: Held = { request, answer, closed: false };
        held.push(entry);
        res.on('close', () => {
          entry.closed = true;
        });
      } else {
        answer();
      }
      notify();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    /** Everything asked so far, in order. */
    requests,
    /** The base URL to give process `index` (ends in `/v1`). */
    urlFor: (index: number) => `${origin}/p${index}/v1`,
    /** From now on, holds every request `rule` picks (instead of answering it) until {@link release}. */
    holdWhen(rule: (request: StandInRequest) => boolean): void {
      hold = rule;
    },
    /** Answers every held request whose caller is still there, and holds no more. */
    release(): void {
      hold = undefined;
      for (const entry of held.splice(0)) if (!entry.closed) entry.answer();
    },
    /** The requests held now (and still waited for). */
    held: () => held.filter((entry) => !entry.closed).map((entry) => entry.request),
    /** Resolves once `predicate` holds (checked after each request); rejects after `timeoutMs`. */
    until(predicate: () => boolean, timeoutMs = 30_000): Promise<void> {
      return waitFor(
        waiters,
        () => (predicate() ? true : undefined),
        timeoutMs,
        () =>
          new Error(
            `the stand-in did not see it in time; requests: ${JSON.stringify(requests).slice(-2000)}`,
          ),
      ).then(() => undefined);
    },
    async close(): Promise<void> {
      held.splice(0);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A running stand-in (see startStandInModels). */
export type StandInModels = Awaited<ReturnType<typeof startStandInModels>>;
