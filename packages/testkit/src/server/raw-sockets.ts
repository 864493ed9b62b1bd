import { connect, type Socket } from 'node:net';

/** A raw TCP connection to a test server: its errors ignored, with promises of its connecting and its closing. */
export interface RawSocket {
  socket: Socket;
  connected: Promise<void>;
  closed: Promise<void>;
}

/**
 * Opens a raw TCP connection to `host`:`port`, for tests that write HTTP by hand or read the answer when they choose.
 * @example const { socket, closed } = rawSocket('127.0.0.1', port);
 */
export function rawSocket(host: string, port: number): RawSocket {
  const socket = connect({ host, port });
  socket.on('error', () => undefined);
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, connected, closed };
}

/** What `socket` receives (as UTF-8), once `complete` says it holds the whole answer. */
export function answerUntil(socket: Socket, complete: (received: string) => boolean): Promise<string> {
  let received = '';
  return new Promise<string>((resolve) =>
    socket.on('data', (data: Buffer) => {
      received += data.toString('utf8');
      if (complete(received)) resolve(received);
    }),
  );
}
