import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply } from 'fastify';

/** A file a browser package's build wrote, with the strong ETag it is served with. */
export interface BuiltFile {
  body: Buffer;
  etag: string;
}

/**
 * The `dist` folder of a browser package the server serves (the webchat, the Console), found through the
 * installed package or, in this repository, beside the server package.
 * @example builtPackageDir('webchat') // …/packages/webchat/dist
 */
export function builtPackageDir(name: 'webchat' | 'console'): string {
  try {
    const require = createRequire(import.meta.url);
    return join(dirname(require.resolve(`@parley/${name}/package.json`)), 'dist');
  } catch {
    // src/http and dist/http both sit three levels below packages/.
    return fileURLToPath(new URL(`../../../${name}/dist`, import.meta.url));
  }
}

/**
 * Reads a built file, or answers undefined when it is not there (the package is not built, or no such file).
 * Read on each request, so a rebuild is served without a restart.
 */
export async function readBuiltFile(path: string): Promise<BuiltFile | undefined> {
  try {
    const body = await readFile(path);
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Sends a built file with its content type, a public cache of `maxAge` seconds (`immutable` for hashed names),
 * its ETag and nosniff, then any further `headers`; answers 304 when the request's If-None-Match is that ETag.
 */
export function sendBuiltFile(
  reply: FastifyReply,
  file: BuiltFile,
  options: { type: string; maxAge: number; immutable?: boolean; headers?: Record<string, string> },
) {
  reply
    .header('content-type', options.type)
    .header('cache-control', `public, max-age=${options.maxAge}${options.immutable ? ', immutable' : ''}`)
    .header('etag', file.etag)
    .header('x-content-type-options', 'nosniff')
    .headers(options.headers ?? {});
  if (reply.request.headers['if-none-match'] === file.etag) return reply.status(304).send();
  return reply.send(file.body);
}
