import { DEFAULT_RETRY, mergeRetry, type ResolvedRetry, type RetryOptions } from './retry.js';

/** An environment variable, where `process` exists (Node, Deno, Bun); browsers have none. */
export function env(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const value = proc?.env?.[name]?.trim();
  return value ? value : undefined;
}

/** The option when set, else the environment variable. */
export function pick(option: string | undefined, envName: string): string | undefined {
  return option !== undefined && option !== '' ? option : env(envName);
}

/** Retry settings: the defaults with the given ones over them. */
export function retryOf(options: RetryOptions | undefined): ResolvedRetry {
  return mergeRetry(DEFAULT_RETRY, options);
}

/**
 * The `fetch` to use, called through a wrapper: a browser's fetch throws "Illegal invocation" when called
 * as a method of another object.
 */
export function fetchOf(custom: typeof fetch | undefined): typeof fetch {
  return custom ? (input, init) => custom(input, init) : (input, init) => globalThis.fetch(input, init);
}
