import { onTestFinished, vi } from 'vitest';

/**
 * Records the waits the client's retry loop asks for (`sleep` of packages/client/src/retry.ts, the only caller
 * of setTimeout in that file), in ms, in the order asked, calling `onSleep` at each as it begins. The timers
 * still run for real; setTimeout is itself again once the test ends (call it inside a test). A test then
 * asserts the waits as the numbers the client asked for, which a loaded machine does not change, where a
 * measured wall-clock time would stretch.
 */
export function retrySleeps(onSleep?: (ms: number) => void): number[] {
  const sleeps: number[] = [];
  const original = globalThis.setTimeout;
  const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
    callback: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    const timer = original(callback, ms, ...args);
    // The caller: the first frame that is neither this function nor the spy's (in node_modules).
    const caller = new Error().stack
      ?.split('\n')
      .slice(1)
      .find((frame) => !frame.includes('node_modules') && !frame.includes('retry-sleeps'));
    if (caller?.includes('/client/src/retry.ts')) {
      sleeps.push(ms ?? 0);
      onSleep?.(ms ?? 0);
    }
    return timer;
  }) as typeof setTimeout);
  onTestFinished(() => spy.mockRestore());
  return sleeps;
}
