import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { flood } from './flood.js';

/** A request the stand-in chat model received. */
export interface ReceivedChatRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    model?: string;
    stream?: boolean;
    messages?: Array<{ role: string; content: string }>;
    [key: string]: unknown;
  };
}

/** How the stand-in answers the next requests. */
export type ChatServerBehaviour =
  /** `{choices:[{message:{content}}]}`, or an SSE stream of these pieces when the request asks for `stream`. */
  | { kind: 'answer'; pieces: string[] }
  /** This status with an OpenAI-style error body. */
  | { kind: 'status'; status: number; message: string }
  /** Never answers (for time-outs). */
  | { kind: 'hang' }
  /** 200 with a body that never ends (JSON, or an SSE event, that goes on and on), for size bounds. */
  | { kind: 'flood' };

/**
 * A small local HTTP server speaking the OpenAI chat completions protocol (`POST /v1/chat/completions`),
 * standing in for a paid chat model in tests: it records each request and answers as told, as JSON or, when
 * the request has `stream: true`, as `text/event-stream` chunks `data: {"choices":[{"delta":{"content":…}}]}`
 * ending with `data: [DONE]`.
 * @example const model = await startChatServer(); model.behave({ kind: 'answer', pieces: ['Hi'] }); … await model.close();
 */
export async function startChatServer() {
  const requests: ReceivedChatRequest[] = [];
  let behaviour: ChatServerBehaviour = { kind: 'answer', pieces: ['Hello'] };
  const hanging = new Set<() => void>();
  /** Bytes sent by each flood answer, once its client closed the connection. */
  const floods: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: ReceivedChatRequest['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedChatRequest['body'];
      } catch {
        // Recorded as empty.
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const b = behaviour;
      switch (b.kind) {
        case 'status':
          res.writeHead(b.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: b.message, type: 'server_error' } }));
          return;
        case 'flood':
          res.writeHead(200, { 'content-type': body.stream ? 'text/event-stream' : 'application/json' });
          void flood(
            res,
            body.stream ? 'data: {"choices":[{"delta":{"content":"' : '{"choices":[{"message":{"content":"',
            'x'.repeat(64 * 1024),
          ).then((bytes) => floods.push(bytes));
          return;
        case 'hang': {
          const end = () => res.destroy();
          hanging.add(end);
          res.on('close', () => hanging.delete(end));
          return;
        }
        case 'answer':
          if (body.stream) {
            res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
            void (async () => {
              for (const piece of b.pieces) {
                res.write(
                  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`,
                );
                await new Promise((r) => setTimeout(r, 5));
              }
              res.write(
                `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
              );
              res.end('data: [DONE]\n\n');
            })();
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              id: 'chatcmpl-1',
              object: 'chat.completion',
              model: body.model,
              choices: [
                {
                  index: 0,
                  message: { role: 'assistant', content: b.pieces.join('') },
                  finish_reason: 'stop',
                },
              ],
            }),
          );
          return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** Base URL to configure, ending in /v1. */
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    floods,
    behave(next: ChatServerBehaviour) {
      behaviour = next;
    },
    async close() {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
/** A stand-in chat model server. */
export type ChatServer = Awaited<ReturnType<typeof startChatServer>>;
