import { movableClock } from './files-api.js';
import { type Lazy, useFixture, useTestApp } from './fixtures.js';
import type { TestApp, TestAppOptions } from './harness.js';

/**
 * A test app whose clock the test moves by hand (`clock.advance`), for the tests of the enclosing `describe`:
 * the clock and then the app are made in `beforeAll` (as `clockedApp` makes them), the app closed in `afterAll`.
 * @example const { t, clock } = useClockedApp({ env: { PARLEY_DOWNLOAD_URL_TTL_SECONDS: '60' } });
 */
export function useClockedApp(options: Lazy<TestAppOptions> = {}): {
  t: TestApp;
  clock: ReturnType<typeof movableClock>;
} {
  const clock = useFixture(
    'the movable clock',
    async () => movableClock(),
    () => undefined,
  );
  const t = useTestApp(async () => ({
    clock: clock.now,
    ...(typeof options === 'function' ? await options() : options),
  }));
  return { t, clock };
}
