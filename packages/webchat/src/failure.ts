import { WebchatError } from './config.js';
import type { Emitter } from './emitter.js';

/** Reports an error through the `error` event and answers it as a `WebchatError` (to throw or keep). */
export type Fail = (error: unknown) => WebchatError;

/** The `Fail` of one webchat instance: anything not a `WebchatError` becomes one with its message. */
export function failThrough(emitter: Emitter): Fail {
  return (error) => {
    const failure =
      error instanceof WebchatError ? error : new WebchatError((error as Error)?.message ?? String(error));
    emitter.emit('error', failure);
    return failure;
  };
}
