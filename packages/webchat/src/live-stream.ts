import { listenStream, type OpenStream } from '@parley/client/event-stream';
import type { ChatSignal } from '@parley/protocol';
import { WebchatError } from './config.js';

/** How the live stream reports. */
export interface ListenHandlers {
  onSignal(signal: ChatSignal): void;
  /** The stream is connected; `again` is true after a reconnection. */
  onOpen?(again: boolean): void;
  /** Reconnecting keeps failing (reported once per run of failures), or the server refused for good. */
  onError(error: WebchatError, fatal: boolean): void;
}

/**
 * Runs a conversation's live stream in the background until `signal` aborts, through `@parley/client`'s
 * reader (reconnecting after the wait the server asks for, resuming with `Last-Event-ID`; an answer of 4xx
 * but 429 ends it). Resolves once the first connection is open (from then on no signal is missed); rejects
 * if the server refuses, or three tries fail, before that. Frames that are not JSON are skipped; silence is
 * not read as a broken connection.
 */
export function followStream(open: OpenStream, handlers: ListenHandlers, signal: AbortSignal): Promise<void> {
  let opened = false;
  let settle: { resolve(): void; reject(e: unknown): void } | undefined;
  const first = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const stream = listenStream(
    open,
    {
      signal,
      idleTimeoutMs: Number.POSITIVE_INFINITY,
      onOpen(reconnected) {
        handlers.onOpen?.(reconnected);
        opened = true;
        settle?.resolve();
      },
      onRetry(error, failures) {
        if (!opened && failures === 3) settle?.reject(error);
        if (failures === 10) {
          const reason = error instanceof Error ? error.message : 'the stream ended';
          handlers.onError(
            new WebchatError(`The live connection keeps failing (${reason}); still retrying`),
            false,
          );
        }
      },
    },
    () => undefined,
  );
  const run = async () => {
    try {
      for await (const next of stream) handlers.onSignal(next);
    } catch (error) {
      // The server refused for good (401, 403, 404, …).
      const failure = error instanceof WebchatError ? error : new WebchatError(String(error));
      if (opened) handlers.onError(failure, true);
      else settle?.reject(error);
    }
  };
  void run().finally(() => settle?.resolve());
  return first;
}
