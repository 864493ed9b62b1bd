// What the corpus benchmarks share: JSON-lines data sets, a bounded pool of async work, a progress line, the
// listing of a bot's files, and loading a bot's knowledge.
import { readFileSync } from 'node:fs';
import { sleep } from './run.js';
import { callApi, type ParleyServer } from './server.js';

/** The rows of a JSON-lines file (blank lines skipped). */
export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Runs `fn` over `items`, `concurrency` at a time, in order of start. */
export async function pool<T>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

// ---------------------------------------------------------------------------------------------------------
// Progress (one line on stderr, redrawn; a line per 10 % when stderr is not a terminal)

/** A progress bar on stderr for `total` items. */
export function progress(label: string, total: number, start = Date.now()) {
  const tty = process.stderr.isTTY === true;
  let lastDecile = -1;
  return {
    update(done: number, extra = '') {
      const fraction = total === 0 ? 1 : Math.min(1, done / total);
      const seconds = (Date.now() - start) / 1000;
      const rate = seconds > 0 ? done / seconds : 0;
      const eta = rate > 0 && done < total ? ` · eta ${duration((total - done) / rate)}` : '';
      const width = 30;
      const filled = Math.round(fraction * width);
      const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
      const line = `${label} ${bar} ${done}/${total} (${(fraction * 100).toFixed(0)} %) · ${duration(seconds)}${eta}${extra ? ` · ${extra}` : ''}`;
      if (tty) process.stderr.write(`\r${line}\x1b[K`);
      else {
        const decile = Math.floor(fraction * 10);
        if (decile !== lastDecile) process.stderr.write(`${line}\n`);
        lastDecile = decile;
      }
    },
    end() {
      if (tty) process.stderr.write('\n');
    },
  };
}

/** Seconds as `42s`, `3m05s` or `1h02m`. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(0)}s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m < 60
    ? `${m}m${String(s).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** A file as the benchmarks poll it. */
export interface FileRow {
  id: string;
  key: string;
  status: string;
  failedStatusReason?: string;
  indexingProgress?: { done: number; total: number };
}

/** Every file of the server's bot, through listFiles. */
export async function listAllFiles(server: ParleyServer): Promise<FileRow[]> {
  const rows: FileRow[] = [];
  let token: string | undefined;
  do {
    const page = await callApi<{ files: FileRow[]; meta: { nextToken?: string } }>(
      server,
      'GET',
      `/v1/files?pageSize=100${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`,
    );
    rows.push(...page.files);
    token = page.meta.nextToken;
  } while (token);
  return rows;
}

/**
 * Uploads one document to be indexed: upsertFile (`index: true`), then the bytes to its uploadUrl. Answers
 * the file id; throws when either step fails or the upload ends `upload_failed`.
 */
export async function uploadForIndexing(
  server: ParleyServer,
  key: string,
  body: Buffer,
  contentType: string,
): Promise<string> {
  const { file } = await callApi<{ file: { id: string; uploadUrl: string } }>(server, 'PUT', '/v1/files', {
    key,
    size: body.length,
    index: true,
    contentType,
  });
  const res = await fetch(file.uploadUrl, {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`upload of ${key} answered ${res.status}: ${text.slice(0, 300)}`);
  const status = (JSON.parse(text) as { file: { status: string } }).file.status;
  if (status === 'upload_failed') throw new Error(`upload of ${key} ended upload_failed`);
  return file.id;
}

/** How many passages a file has (every page of listFilePassages). */
export async function passageCount(server: ParleyServer, fileId: string): Promise<number> {
  let count = 0;
  let token: string | undefined;
  do {
    const page = await callApi<{ passages: unknown[]; meta: { nextToken?: string } }>(
      server,
      'GET',
      `/v1/files/${fileId}/passages?limit=200${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`,
    );
    count += page.passages.length;
    token = page.meta.nextToken;
  } while (token);
  return count;
}

/** A document to index: its key, content type and bytes (made only when it must be uploaded). */
export interface KnowledgeDocument {
  key: string;
  contentType: string;
  bytes: () => Buffer | Promise<Buffer>;
}

/**
 * Uploads the documents the server's bot does not hold yet (4 at a time), then waits until every one of them
 * is indexed, drawing a progress line labelled `label`.
 * @throws when a document's upload or indexing fails
 */
export async function indexDocuments(
  server: ParleyServer,
  docs: readonly KnowledgeDocument[],
  label = 'index ',
): Promise<void> {
  const existing = new Map((await listAllFiles(server)).map((f) => [f.key, f.status]));
  const missing = docs.filter((d) => {
    const status = existing.get(d.key);
    return status === undefined || status === 'upload_pending' || status === 'upload_failed';
  });
  if (missing.length > 0) {
    console.log(`uploading ${missing.length} documents…`);
    await pool(missing, 4, async (d) => {
      await uploadForIndexing(server, d.key, await d.bytes(), d.contentType);
    });
  }
  const start = Date.now();
  const bar = progress(label, docs.length, start);
  const wanted = new Set(docs.map((d) => d.key));
  for (;;) {
    const rows = (await listAllFiles(server)).filter((f) => wanted.has(f.key));
    const failed = rows.filter((f) => f.status === 'indexing_failed' || f.status === 'upload_failed');
    if (failed.length > 0) throw new Error(`indexing failed: ${JSON.stringify(failed.slice(0, 3))}`);
    const done = rows.filter((f) => f.status === 'indexing_completed').length;
    const inFlight = rows
      .filter((f) => f.indexingProgress)
      .map((f) => `${f.indexingProgress?.done}/${f.indexingProgress?.total}`)
      .join(' ');
    bar.update(done, inFlight ? `passages of files in flight ${inFlight}` : '');
    if (done === docs.length) break;
    await sleep(missing.length > 0 ? 2000 : 100);
  }
  bar.end();
}
