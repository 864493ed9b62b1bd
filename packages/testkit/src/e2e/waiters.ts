/**
 * Waits until `check` answers a value (it is run at once, then each time the owner runs its `waiters`, e.g.
 * on new output); a throw from `check` rejects with that error, and `timeoutMs` without a value rejects
 * with `onTimeout()`. The check leaves `waiters` when it settles.
 */
export function waitFor<T>(
  waiters: Set<() => void>,
  check: () => T | undefined,
  timeoutMs: number,
  onTimeout: () => Error,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const run = () => {
      let value: T | undefined;
      try {
        value = check();
      } catch (error) {
        done();
        reject(error);
        return;
      }
      if (value !== undefined) {
        done();
        resolve(value);
      }
    };
    const timer = setTimeout(() => {
      done();
      reject(onTimeout());
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      waiters.delete(run);
    };
    waiters.add(run);
    run();
  });
}
