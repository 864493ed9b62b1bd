import type { ServerResponse } from 'node:http';

/**
 * Answers with `head` then `chunk` again and again, as fast as the client takes it, until the client
 * closes the connection or `maxBytes` were sent (a bound so a broken client cannot make a test run
 * forever). Resolves with the bytes sent, once the connection is closed.
 */
export function flood(
  res: ServerResponse,
  head: string,
  chunk: string,
  maxBytes = 4 * 1024 ** 3,
): Promise<number> {
  return new Promise((resolve) => {
    let sent = 0;
    let closed = false;
    res.on('close', () => {
      closed = true;
      resolve(sent);
    });
    const data = Buffer.from(chunk);
    const pump = () => {
      while (!closed && sent < maxBytes) {
        sent += data.length;
        if (!res.write(data)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!closed) res.end();
    };
    sent += Buffer.byteLength(head);
    res.write(head);
    pump();
  });
}
