import { ParleyError } from './errors.js';
import { type BadFrame, type ListenOptions, listenStream, type StreamSignal } from './event-stream.js';
import type { Transport } from './http.js';

/**
 * A live stream of the API at `url` (Server-Sent Events) as an async iterator of its signals, through the
 * client's transport (its credentials and headers), reconnecting with `Last-Event-ID` (see `listenStream`).
 */
export function listenAt<S extends StreamSignal>(
  http: Transport,
  url: string,
  options: ListenOptions,
): AsyncGenerator<S, void> {
  const open = (lastEventId: string | undefined, signal: AbortSignal) =>
    http.send<Response>(
      url,
      'GET',
      () => ({
        method: 'GET',
        headers: http.headers({}, { accept: 'text/event-stream', 'last-event-id': lastEventId }),
      }),
      { signal, retry: { attempts: 1 } },
      { raw: true },
    );
  const badFrame: BadFrame = (data) => {
    if (!options.onBadFrame)
      return new ParleyError(`The live stream sent a frame that is not JSON: ${data.slice(0, 200)}`);
    options.onBadFrame(data);
    return undefined;
  };
  return listenStream<S>(open, options, badFrame);
}
