// A server start loads the German noun list in the background when its database holds a German file (issues #36
// and #38): in a worker thread, after the server listens, never on the thread that serves requests. `startServer`
// freezes Object.prototype, so this file runs in a process of its own (the isolated project).
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../testkit/src/server/cli.js';
import { useTempDirs } from '../../testkit/src/server/temp-dirs.js';
import { loadConfig } from './config/config.js';
import { germanLexiconStatus, unloadGermanNouns } from './search/language/german-lexicon.js';
import { holdsGermanFile, type RunningServer, startServer } from './server.js';

const tempDir = useTempDirs('parley-german-nouns-');

const GERMAN =
  'Ab einem Bestellwert von 60 Euro liefern wir versandkostenfrei. Die Rückgabefrist beträgt 30 Tage.';

async function serve(dataDir: string): Promise<RunningServer> {
  return startServer(
    loadConfig({
      PARLEY_DATA_DIR: dataDir,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      PARLEY_EMBEDDER: 'none',
      PARLEY_LOG_LEVEL: 'silent',
      PARLEY_RATE_LIMIT_MAX: '0',
    }),
  );
}

/** Stores `text` as a German file of the bootstrap bot and waits for its indexing. */
async function indexGerman(server: RunningServer, text: string): Promise<void> {
  const { botAccessKey, botId } = server.bootstrap.info;
  const headers = { authorization: `Bearer ${botAccessKey}`, 'x-bot-id': botId };
  const upserted = await server.app.inject({
    method: 'PUT',
    url: '/v1/files',
    headers,
    payload: { key: 'versand.txt', size: Buffer.byteLength(text), index: true, metadata: { language: 'de' } },
  });
  expect(upserted.statusCode, upserted.body).toBe(200);
  const { id, uploadUrl } = (upserted.json() as { file: { id: string; uploadUrl: string } }).file;
  const url = new URL(uploadUrl);
  const put = await server.app.inject({
    method: 'PUT',
    url: `${url.pathname}${url.search}`,
    headers: { 'content-type': 'application/octet-stream' },
    payload: Buffer.from(text),
  });
  expect(put.statusCode, put.body).toBe(200);
  const status = async () =>
    (
      (await server.app.inject({ method: 'GET', url: `/v1/files/${id}`, headers })).json() as {
        file: { status: string };
      }
    ).file.status;
  await vi.waitUntil(async () => (await status()) !== 'indexing_pending', { timeout: 60_000, interval: 25 });
  expect(await status()).toBe('indexing_completed');
}

describe('a server start', () => {
  let server: RunningServer | undefined;
  afterAll(() => server?.close());

  it('loads the German noun list in the background when the database holds a German file', async () => {
    const dataDir = await tempDir();
    server = await serve(dataDir);
    expect(await holdsGermanFile(server.db.kysely)).toBe(false);
    await indexGerman(server, GERMAN);
    expect(await holdsGermanFile(server.db.kysely)).toBe(true);
    await server.close();
    server = undefined;

    // The same database in a process that has not met German yet.
    unloadGermanNouns();
    const before = germanLexiconStatus().loads;
    server = await serve(dataDir);
    // Ready before the list is: the start did not wait for it.
    expect(germanLexiconStatus().state).not.toBe('loaded');
    await vi.waitUntil(() => germanLexiconStatus().state === 'loaded', { timeout: 20_000, interval: 20 });
    expect(germanLexiconStatus().loads).toEqual({ worker: before.worker + 1, sync: before.sync });
  });
});
