import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { FileObject } from '@parley/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { createTestApp, type TestApp, type TestAppOptions } from './harness.js';

/** A file as upsertFile answers it: with the URL its bytes go to. */
export type Upserted = FileObject & { uploadUrl: string };

/** The methods the Files API tests call. */
export type FilesMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A clock the test moves by hand. */
export function movableClock() {
  const state = { ms: Date.now() };
  return {
    now: () => new Date(state.ms),
    advance: (ms: number) => {
      state.ms += ms;
    },
    get ms() {
      return state.ms;
    },
  };
}

/** A test app whose clock the test moves by hand (`clock.advance`). */
export async function clockedApp(options: TestAppOptions = {}) {
  const clock = movableClock();
  const t = await createTestApp({ clock: clock.now, ...options });
  return { t, clock };
}

/** The path and query of an absolute URL the API handed out (to inject it). */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

/** A URL the API handed out, changed by `change` (to check that an altered signed URL is refused). */
export function tamper(url: string, change: (u: URL) => void): string {
  const u = new URL(url);
  change(u);
  return u.toString();
}

/** The hex SHA-256 of some bytes, as a file's checksum. */
export function sha256(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A Files API call on the bootstrap bot (`x-bot-id`), as the bot itself unless `token` says otherwise. */
export function api(
  t: TestApp,
  method: FilesMethod,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  token: string = t.botKey,
): Promise<LightMyRequestResponse> {
  return t.call({ method, url, token, headers: { 'x-bot-id': t.botId, ...headers }, body });
}

/** A Files API call on the bootstrap bot (`x-bot-id`) with `token`, or with none when it is undefined. */
export function callAs(
  t: TestApp,
  token: string | undefined,
  method: FilesMethod,
  url: string,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  return t.call({ method, url, token, headers: { 'x-bot-id': t.botId }, body });
}

/** Upserts a file of the bootstrap bot (as the bot unless `token` says otherwise); expects 200. */
export async function upsert(t: TestApp, body: Record<string, unknown>, token?: string): Promise<Upserted> {
  const res = await api(t, 'PUT', '/v1/files', body, {}, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { file: Upserted }).file;
}

/** PUTs bytes (or a stream) to an upload URL, as application/octet-stream unless `headers` say otherwise. */
export function putBytes(
  t: TestApp,
  uploadUrl: string,
  payload: Buffer | Readable,
  headers: Record<string, string> = { 'content-type': 'application/octet-stream' },
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'PUT', url: pathOf(uploadUrl), payload, headers });
}

/** Upserts `key` and uploads `bytes` to it (as the bot unless `token` says otherwise); expects 200 twice; answers the completed file. */
export async function store(
  t: TestApp,
  key: string,
  bytes: Buffer | string,
  extra: Record<string, unknown> = {},
  token?: string,
): Promise<FileObject> {
  const content = Buffer.from(bytes);
  const file = await upsert(t, { key, size: content.length, ...extra }, token);
  const res = await putBytes(t, file.uploadUrl, content);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { file: FileObject }).file;
}

/** A file of the bootstrap bot by id or key (as the bot unless `token` says otherwise); expects 200. */
export async function getFile(t: TestApp, idOrKey: string, token?: string): Promise<FileObject> {
  const res = await api(t, 'GET', `/v1/files/${encodeURIComponent(idOrKey)}`, undefined, {}, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { file: FileObject }).file;
}

/** GETs (or HEADs) a URL the API handed out. */
export function fetchUrl(
  t: TestApp,
  url: string,
  headers: Record<string, string> = {},
  method: 'GET' | 'HEAD' = 'GET',
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method, url: pathOf(url), headers });
}

/** Every regular file under `<dataDir>/blobs` (the local blob store), as paths relative to it. */
export async function blobPaths(dataDir: string): Promise<string[]> {
  const root = join(dataDir, 'blobs');
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(root.length + 1));
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
}
