import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Client, type ClientOptions } from '../../../client/src/client.js';
import { createTestApp, type TestAppOptions } from '../server/harness.js';
import { freePort } from '../shared/ports.js';

/** A port on 127.0.0.1 that nothing listens on (a call to it is refused). */
export { freePort as closedPort };

/**
 * The real Parley server in-process (temp SQLite), listening on a random port of 127.0.0.1, with a client
 * for its bootstrap owner.
 */
export async function startParley(options: TestAppOptions = {}) {
  // The upload and download URLs the server hands out must name the port it listens on.
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ ...options, env: { PARLEY_PUBLIC_URL: apiUrl, ...options.env } });
  await t.app.listen({ port, host: '127.0.0.1' });
  /** A client of this server; by default the owner's token in the bootstrap workspace, no retries. */
  const client = (overrides: ClientOptions = {}) =>
    new Client({
      apiUrl,
      token: t.owner.token,
      workspaceId: t.workspaceId,
      retry: { attempts: 1 },
      ...overrides,
    });
  return { ...t, apiUrl, client };
}
/** A running Parley server for client tests. */
export type Parley = Awaited<ReturnType<typeof startParley>>;

/** One request a fake server received. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/**
 * A small node:http server on 127.0.0.1 whose answers the test scripts: `handler` gets the request (body
 * read) and its index; answering nothing leaves the request hanging until the server closes.
 */
export async function startFakeServer(
  handler: (req: Received, res: ServerResponse, index: number) => void | Promise<void>,
) {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(r);
      void handler(r, res, received.length - 1);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers a JSON body with a status and headers. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A wire error body of a type. */
export function wireError(code: number, type: string, message = `${type} happened`) {
  return { id: 'err_20260101000000x0badf00d', code, type, message };
}

/** What `promise` rejects with; throws when it resolves (the call was expected to fail). */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}
