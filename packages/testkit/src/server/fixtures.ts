import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp, type TestAppOptions } from './harness.js';

/** Options of a fixture, or a function answering them once the earlier `beforeAll`s have run. */
export type Lazy<T> = T | (() => T | Promise<T>);

const resolve = async <T>(value: Lazy<T>): Promise<T> =>
  typeof value === 'function' ? (value as () => T | Promise<T>)() : value;

/**
 * A value made in `beforeAll` and closed in `afterAll`, handed out before it exists: every member read on
 * the handle is read on the value of the moment (reading it outside a test or hook throws).
 */
export function useFixture<T extends object>(
  name: string,
  make: () => Promise<T>,
  close: (value: T) => unknown,
): T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await make();
  });
  afterAll(async () => {
    if (value) await close(value);
    value = undefined;
  });
  return new Proxy({} as T, {
    get(_, key) {
      if (!value) throw new Error(`${name} is only there inside tests and hooks (read: ${String(key)})`);
      return Reflect.get(value, key);
    },
    has: (_, key) => value !== undefined && Reflect.has(value, key),
  });
}

/**
 * A test app for the tests of the enclosing `describe`: made in `beforeAll`, closed in `afterAll`, used as
 * `t` always was. Options may be a function, for values an earlier fixture makes.
 * @example const t = useTestApp({ env: { PARLEY_QUOTA_BOTS_PER_WORKSPACE: '2' } });
 */
export function useTestApp(options: Lazy<TestAppOptions> = {}): TestApp {
  return useFixture(
    'the test app',
    async () => createTestApp(await resolve(options)),
    (t) => t.close(),
  );
}
