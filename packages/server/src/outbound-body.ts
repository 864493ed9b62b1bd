/**
 * Reading the answers of outbound HTTP calls (webhooks, embeddings, chat models) within bounds: a remote
 * service, or a URL a user chose, can answer with any number of bytes, and none of them may exhaust memory.
 */
/** Thrown when a response body is larger than its reader accepts. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
}

/**
 * The body of an outbound call's response as UTF-8 text, read while it stays within `maxBytes`: a larger
 * body (by its Content-Length, or once that many bytes arrived) is cancelled, so the connection closes,
 * and the read rejects with {@link ResponseTooLargeError}. Nothing past the cap is ever held in memory.
 * @example const text = await readTextCapped(response, 8 * 1024 * 1024);
 */
export async function readTextCapped(
  response: { body: ReadableStream<Uint8Array> | null; headers: { get(name: string): string | null } },
  maxBytes: number,
): Promise<string> {
  return (await readBytesCapped(response, maxBytes)).toString('utf8');
}

/** The body of an outbound call's response as bytes, within `maxBytes` as {@link readTextCapped} reads it. */
export async function readBytesCapped(
  response: { body: ReadableStream<Uint8Array> | null; headers: { get(name: string): string | null } },
  maxBytes: number,
): Promise<Buffer> {
  const body = response.body;
  if (!body) return Buffer.alloc(0);
  const tooLarge = () =>
    new ResponseTooLargeError(
      `the answer is larger than the ${maxBytes.toLocaleString('en-US')} bytes accepted`,
    );
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge();
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks);
}

/** Ends an outbound response without reading its body (the connection is closed, whatever its size). */
export async function discardBody(response: { body: ReadableStream<Uint8Array> | null }): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
