// Route schemas become validators and serializers at a route's first use by default (memory for the routes a
// deployment never calls), or all while the app starts (`schemaCompilation: 'start'`). Both answer alike.
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../testkit/src/server/temp-dirs.js';
import { buildApp, type SchemaCompilation } from './app.js';
import { bootstrap } from './bootstrap.js';
import { loadConfig } from './config/config.js';
import { openDatabase } from './db/database.js';

const tempDir = useTempDirs('parley-schemas-');

/** A few calls that go through validators (body, query, params) and response serializers: status and body. */
async function answers(schemaCompilation: SchemaCompilation): Promise<string[]> {
  const dataDir = await tempDir();
  const config = loadConfig({
    PARLEY_DATA_DIR: dataDir,
    PARLEY_LOG_LEVEL: 'silent',
    PARLEY_EMBEDDER: 'none',
  });
  const db = await openDatabase({ dataDir });
  const app = await buildApp({ config, db, logger: false, schemaCompilation });
  try {
    await app.ready();
    const { info } = await bootstrap({ config, db: db.kysely, services: app.services });
    const call = async (
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      payload?: Record<string, unknown>,
      label = url,
    ) => {
      const res = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${info.token}`, 'x-workspace-id': info.workspaceId },
        ...(payload ? { payload } : {}),
      });
      // Ids, times and page tokens differ from app to app: compare the shape of an answer, not those values.
      const body = res.body.replace(/"(id|[a-zA-Z]+(?:Id|At|By|Token))":"[^"]*"/g, '"$1":"…"');
      return `${method} ${label} → ${res.statusCode} ${body}`;
    };
    return [
      await call('POST', '/v1/admin/bots', { name: 42 }),
      await call('POST', '/v1/admin/bots', { name: 'Schemas', unknown: true }),
      await call('GET', '/v1/admin/bots?pageSize=lots'),
      await call('GET', '/v1/admin/bots?pageSize=1'),
      await call('GET', `/v1/admin/bots/${info.botId}`, undefined, '/v1/admin/bots/{demo bot}'),
    ];
  } finally {
    await app.close();
    await db.close();
  }
}

describe('route schema compilation', () => {
  it('compiles every route schema while the app starts when asked, and answers as when compiling at first use', async () => {
    const atStart = await answers('start');
    const atFirstUse = await answers('first-use');
    expect(atFirstUse).toEqual(atStart);
    // The validators ran: a number where a string belongs is refused naming the field; the query is coerced.
    expect(atFirstUse[0]).toMatch(/→ 400 .*InvalidPayload.*name/);
    expect(atFirstUse[2]).toMatch(/→ 400 .*InvalidQuery/);
    expect(atFirstUse[3]).toMatch(/→ 200 \{"bots":\[/);
    // The serializer ran: the bot's answer has its schema's fields.
    expect(atFirstUse[4]).toMatch(/→ 200 .*"name":"/);
  }, 60_000);
});
