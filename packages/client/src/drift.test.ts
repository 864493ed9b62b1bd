import type { ServerResponse } from 'node:http';
import {
  ACCOUNT_OPERATIONS,
  BOT_OPERATIONS,
  CHAT_OPERATIONS,
  FILE_OPERATIONS,
  INTEGRATION_OPERATIONS,
  KNOWLEDGE_BASE_OPERATIONS,
  type Operation,
  WORKSPACE_OPERATIONS,
} from '@parley/protocol/operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type Received, startFakeServer, startParley } from '../../testkit/src/client/servers.js';
import { ChatClient } from './chat.js';
import { Client } from './client.js';

// The client cannot drift from the server: every operation of the server's /openapi.json has a client method
// sending the same method and path, and every request a client method sends is an operation of that document.
// Each API class has a table of its operations in @parley/protocol/operations (method name → method, path, id)
// and sends every request through it; these tests hold the tables against the document, then check that
// each method sends the request of its own entry. Routes the document hides (/healthz, /readyz, /docs, /openapi.json, the
// webchat's hosted page and script, CORS preflights, HEAD) are not part of the API and are not checked.

type Table = Readonly<Record<string, Operation>>;

/** The tables of `Client`, one per API class it is made of. */
const CLIENT_TABLES: readonly Table[] = [
  BOT_OPERATIONS,
  WORKSPACE_OPERATIONS,
  ACCOUNT_OPERATIONS,
  INTEGRATION_OPERATIONS,
  FILE_OPERATIONS,
  KNOWLEDGE_BASE_OPERATIONS,
];

/** Methods that send no operation of their own: they chain declared ones and follow URLs the API hands out. */
const CLIENT_COMPOSITES = {
  uploadFile: 'upsertFile, then a PUT of the bytes to its uploadUrl, then getFile',
  waitForIndexing: 'getFile until the file is indexed',
  downloadFile: "getFile, then a GET of the file's url",
  with: 'sends nothing: a new client with other options',
};
const CHAT_COMPOSITES = {
  uploadFile: 'createFile, then a PUT of the bytes to its uploadUrl',
  with: 'sends nothing: a new chat client with other options',
};

/** Operations of the document no client method sends, each with the reason. */
const EXCLUDED: Record<string, string> = {
  'PUT /v1/files/{id}/upload':
    'a capability URL: the signed uploadUrl that upsertFile and the chat createFile hand out; uploadFile PUTs to it as given',
  'POST /v1/files/{id}/upload':
    'a capability URL: uploadFile POSTs to the uploadUrl to start a resumable upload of a large file',
  'GET /v1/files/{id}/uploads/{uploadId}':
    "a resumable upload's own signed URL: uploadFile reads its offset there to resume",
  'PATCH /v1/files/{id}/uploads/{uploadId}':
    "a resumable upload's own signed URL: uploadFile PATCHes the bytes there from the server's offset",
  'DELETE /v1/files/{id}/uploads/{uploadId}':
    "a resumable upload's own signed URL: uploadFile cancels it there when the caller aborts",
  'GET /v1/files/{id}/content':
    "a capability URL: a file's url (signed unless public_content); downloadFile GETs it as given",
  'GET /v1/chat/{botId}/messages/{id}/sources/{n}':
    "a link bot answers carry for people to open (no credentials, 302 to the source file's download URL)",
  'GET /webchat/v1/bots/{botId}/config':
    "the webchat script's own API for browsers embedding the chat; the client reads the same with getBotWebchat",
};

interface DocOperation {
  method: string;
  path: string;
  operationId: string | undefined;
}

/**
 * A path as compared: Fastify serves a prefix's root route both with and without the trailing slash
 * (`/v1/files` and `/v1/files/`) and the document names the second; the client sends the first.
 */
const normal = (path: string) => (path.length > 1 ? path.replace(/\/$/, '') : path);
const key = (op: { method: string; path: string }) => `${op.method} ${normal(op.path)}`;

/** Every operation of an OpenAPI document. */
function documented(doc: {
  paths: Record<string, Record<string, { operationId?: string }>>;
}): DocOperation[] {
  const methods = ['get', 'put', 'post', 'delete', 'patch', 'head'];
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => methods.includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path: normal(path),
        operationId: op.operationId,
      })),
  );
}

/** Every entry of some tables, with the name of the method that sends it. */
const entries = (tables: readonly Table[]) =>
  tables.flatMap((table) =>
    Object.entries(table).map(([name, op]) => ({ name, ...op, path: normal(op.path) })),
  );

/** The public method names of a class (its own and those it inherits or is composed of). */
function methodNames(cls: { prototype: object }): string[] {
  const names = new Set<string>();
  for (let proto = cls.prototype; proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const value = Object.getOwnPropertyDescriptor(proto, name)?.value;
      if (name !== 'constructor' && typeof value === 'function') names.add(name);
    }
  }
  return [...names].sort();
}

/** Path parameter values the requests below use: a path segment matches a `{param}` only when it is one. */
const SAMPLE = {
  id: 'id_1',
  keyId: 'key_1',
  integrationId: 'int_1',
  fileId: 'file_1',
  tag: 'tag_1',
  destinationKey: 'dest_1',
  conversationId: 'conv_1',
  entryId: 'qa_1',
  userId: 'user_1',
  sourceId: 'src_1',
};
const SAMPLE_VALUES = new Set([...Object.values(SAMPLE), 'bot_1']);

/** Whether a request's method and path are those of an operation (parameters being sample values). */
function sends(request: Received, op: { method: string; path: string }): boolean {
  const path = normal(new URL(request.url, 'http://x').pathname).split('/');
  const template = op.path.split('/');
  return (
    request.method === op.method &&
    path.length === template.length &&
    template.every((part, i) =>
      /^\{\w+\}$/.test(part) ? SAMPLE_VALUES.has(path[i] ?? '') : part === path[i],
    )
  );
}

/** A fake server answering what the methods above need, for requests to be recorded rather than served. */
function answer(base: () => string) {
  return (req: Received, res: ServerResponse) => {
    const file = {
      id: 'file_1',
      key: 'k.txt',
      size: 3,
      contentType: 'text/plain',
      status: 'indexing_completed',
      index: true,
      url: `${base()}/v1/files/file_1/content`,
      uploadUrl: `${base()}/v1/files/file_1/upload`,
    };
    if (req.url.startsWith('/v1/files/file_1/content')) {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '3' }).end('abc');
    } else json(res, 200, { file, meta: {} });
  };
}

type Methods = Record<string, (...args: unknown[]) => unknown>;

describe("the client against the server's OpenAPI document", () => {
  let doc: DocOperation[];
  let close: () => Promise<void>;

  beforeAll(async () => {
    const p = await startParley();
    close = () => p.close();
    const res = await fetch(`${p.apiUrl}/openapi.json`);
    expect(res.status).toBe(200);
    doc = documented((await res.json()) as Parameters<typeof documented>[0]);
  });
  afterAll(() => close?.());

  const clientOps = () => entries([...CLIENT_TABLES, CHAT_OPERATIONS]);

  it('has a client method for every operation of the document, or an exclusion saying why not', () => {
    const declared = new Set(clientOps().map(key));
    const missing = doc.filter((op) => !declared.has(key(op)) && !(key(op) in EXCLUDED));
    expect(missing).toEqual([]);
  });

  it('declares only operations of the document, with the same method, path and operation id', () => {
    const byKey = new Map(doc.map((op) => [key(op), op]));
    const unknown = clientOps()
      .filter((op) => byKey.get(key(op))?.operationId !== op.operationId)
      .map((op) => ({ client: `${op.name}: ${key(op)} (${op.operationId})`, server: byKey.get(key(op)) }));
    expect(unknown).toEqual([]);
  });

  it('excludes only operations the document has and no client method sends', () => {
    const documentedKeys = new Set(doc.map(key));
    const declared = new Set(clientOps().map(key));
    const stale = Object.keys(EXCLUDED).filter((k) => !documentedKeys.has(k) || declared.has(k));
    expect(stale).toEqual([]);
  });

  it('has a table entry for every public method of Client and ChatClient, or names it as a composite', () => {
    const clientNames = [...entries(CLIENT_TABLES).map((e) => e.name), ...Object.keys(CLIENT_COMPOSITES)];
    expect(methodNames(Client)).toEqual([...clientNames].sort());
    const chatNames = [...Object.keys(CHAT_OPERATIONS), ...Object.keys(CHAT_COMPOSITES)];
    expect(methodNames(ChatClient)).toEqual([...chatNames].sort());
  });

  describe('requests, recorded by a fake server', () => {
    let fake: Awaited<ReturnType<typeof startFakeServer>>;
    let client: Client;
    let chat: ChatClient;

    beforeAll(async () => {
      fake = await startFakeServer(answer(() => fake.url));
      const common = { apiUrl: fake.url, retry: { attempts: 1 } };
      client = new Client({ ...common, token: 'pat_x', workspaceId: 'ws_1', botId: 'bot_1' });
      chat = new ChatClient({ ...common, botId: 'bot_1', userKey: 'key' });
    });
    afterAll(() => fake?.close());

    /** The requests `call` sends. */
    async function recorded(call: () => unknown): Promise<Received[]> {
      const before = fake.received.length;
      await call();
      return fake.received.slice(before);
    }

    it('sends, from each method, the one request of its own table entry', async () => {
      const wrong: string[] = [];
      const check = async (api: Client | ChatClient, table: Table) => {
        const methods = api as unknown as Methods;
        for (const [name, op] of Object.entries(table)) {
          // Every method takes one input object, but the live streams must be iterated (and listen takes a
          // conversation id).
          const requests = await recorded(async () => {
            if (name === 'listen') await chat.listen('conv_1', { reconnect: false }).next();
            else if (name === 'listenBotConversations')
              await client.listenBotConversations(SAMPLE, { reconnect: false }).next();
            else await methods[name]?.(SAMPLE);
          });
          const sent = requests.map((r) => `${r.method} ${r.url.split('?')[0]}`);
          if (requests.length !== 1 || !sends(requests[0] as Received, op))
            wrong.push(`${name}: ${key(op)} ≠ ${sent}`);
        }
      };
      for (const table of CLIENT_TABLES) await check(client, table);
      await check(chat, CHAT_OPERATIONS);
      expect(wrong).toEqual([]);
    });

    it('sends, from the composite methods, only operations of the document', async () => {
      const composites: Record<string, () => Promise<unknown>> = {
        'client.uploadFile': () => client.uploadFile({ key: 'k.txt', content: 'abc' }),
        'client.waitForIndexing': () => client.waitForIndexing('file_1'),
        'client.downloadFile': async () => {
          const { stream } = await client.downloadFile('file_1');
          await new Response(stream).text();
        },
        'chat.uploadFile': () => chat.uploadFile({ name: 'a.txt', conversationId: 'conv_1', content: 'abc' }),
      };
      const undocumented: string[] = [];
      for (const [name, call] of Object.entries(composites)) {
        const requests = await recorded(call);
        expect(requests.length, name).toBeGreaterThan(0);
        for (const r of requests) {
          if (!doc.some((op) => sends(r, op))) undocumented.push(`${name}: ${r.method} ${r.url}`);
        }
      }
      expect(undocumented).toEqual([]);
    });
  });
});
