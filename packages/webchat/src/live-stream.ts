import type { ChatStreamSignal, ListenOptions } from '@parley/client/chat';
import type { ChatSignal } from '@parley/protocol';
import { WebchatError } from './config.js';

/** How the live stream reports. */
export interface ListenHandlers {
  onSignal(signal: ChatSignal): void;
  /** The stream is connected; `again` is true after a reconnection. */
  onOpen?(again: boolean): void;
  /** Reconnecting keeps failing (reported once per run of failures), or the server refused for good. */
  onError(error: unknown, fatal: boolean): void;
}

/** A conversation's live stream as `@parley/client`'s `listen` answers it, with the options given. */
export type StartStream = (options: ListenOptions) => AsyncIterable<ChatStreamSignal>;

/**
 * Runs a conversation's live stream in the background until `signal` aborts, through `@parley/client`'s
 * `listen` (reconnecting after the wait the server asks for, resuming with `Last-Event-ID`; an answer of 4xx
 * but 429 ends it). Resolves once the first connection is open (from then on no signal is missed); rejects
 * if the server refuses, or three tries fail, before that. Frames that are not JSON are skipped; silence is
 * not read as a broken connection.
 */
export function followStream(
  start: StartStream,
  handlers: ListenHandlers,
  signal: AbortSignal,
): Promise<void> {
  let opened = false;
  let settle: { resolve(): void; reject(e: unknown): void } | undefined;
  const first = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  const stream = start({
    signal,
    idleTimeoutMs: Number.POSITIVE_INFINITY,
    onBadFrame: () => undefined,
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
  });
  const run = async () => {
    try {
      for await (const next of stream) handlers.onSignal(next);
    } catch (error) {
      // The server refused for good (401, 403, 404, …).
      if (opened) handlers.onError(error, true);
      else settle?.reject(error);
    }
  };
  void run().finally(() => settle?.resolve());
  return first;
}
