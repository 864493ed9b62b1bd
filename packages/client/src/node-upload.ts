/** True in Node, Deno and Bun, whose `fetch` streams request bodies over HTTP/1.1; false in browsers. */
export function streamsRequestBodies(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof proc?.versions?.node === 'string';
}

type NodeHttp = typeof import('node:http');

/** `node:http` and `node:https`, loaded only in Node (Deno, Bun), out of reach of browser bundlers. */
async function nodeHttp(): Promise<{ http: NodeHttp; https: typeof import('node:https') } | undefined> {
  if (!streamsRequestBodies()) return undefined;
  const httpName = 'node:http';
  const httpsName = 'node:https';
  try {
    const [http, https] = await Promise.all([
      import(/* webpackIgnore: true */ /* @vite-ignore */ httpName) as Promise<NodeHttp>,
      import(/* webpackIgnore: true */ /* @vite-ignore */ httpsName) as Promise<typeof import('node:https')>,
    ]);
    return { http, https };
  } catch {
    return undefined;
  }
}

/**
 * A `fetch` for upload PUTs over `node:http(s)`: the body stream is written chunk by chunk, each write
 * waiting for the socket to drain, so memory stays at a few chunks whatever the size. (Node's own fetch
 * reads a request stream as fast as it can, ahead of the network.) Undefined outside Node, Deno and Bun.
 */
export async function nodeUploadFetch(): Promise<typeof fetch | undefined> {
  const mods = await nodeHttp();
  if (!mods) return undefined;
  return ((input: string | URL, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input));
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const request = url.protocol === 'https:' ? mods.https.request : mods.http.request;
      let answered = false;
      const req = request(
        url,
        { method: init.method ?? 'GET', headers, ...(init.signal ? { signal: init.signal } : {}) },
        (res) => {
          answered = true;
          const chunks: Uint8Array[] = [];
          res.on('data', (chunk: Uint8Array) => chunks.push(chunk));
          res.on('error', (error) => reject(new TypeError('The upload response failed', { cause: error })));
          res.on('end', () => {
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (Array.isArray(value)) for (const v of value) responseHeaders.append(name, v);
              else if (value !== undefined) responseHeaders.set(name, value);
            }
            const status = res.statusCode ?? 500;
            const body = status === 204 || status === 304 ? null : new Blob(chunks);
            resolve(
              new Response(body, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }),
            );
          });
        },
      );
      req.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
      const body = init.body as ReadableStream<Uint8Array> | Uint8Array | null | undefined;
      if (body === null || body === undefined || body instanceof Uint8Array) {
        req.end(body ?? undefined);
        return;
      }
      const reader = body.getReader();
      const drained = () =>
        new Promise<void>((done) => {
          const finish = () => {
            req.off('drain', finish);
            req.off('close', finish);
            done();
          };
          req.on('drain', finish);
          req.on('close', finish);
        });
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            if (answered || req.destroyed) {
              await reader.cancel();
              return;
            }
            if (!req.write(value)) await drained();
          }
          req.end();
        } catch (error) {
          // The source failed (e.g. it yielded the wrong number of bytes): that is the error to throw.
          reject(error);
          req.destroy();
        }
      })();
    })) as typeof fetch;
}
