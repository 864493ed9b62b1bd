import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uniqueEmail } from '../../../../testkit/src/server/admin-calls.js';
import { movableClock } from '../../../../testkit/src/server/files-api.js';
import { createTestApp, type TestApp, testDatabases } from '../../../../testkit/src/server/harness.js';
import { type SecondProcess, secondProcess } from '../../../../testkit/src/server/second-process.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import type { ParleyApp } from '../../app.js';

/** Every password check a sign-in makes (a real account's hash or the unknown e-mail's stand-in), counted. */
const checks = vi.hoisted(() => ({
  count: 0,
  /** While set, checks wait for it (an attempt held in flight). */
  gate: undefined as Promise<void> | undefined,
  /** Called when a check starts. */
  started: () => {},
}));

vi.mock('../../access/passwords.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../access/passwords.js')>();
  const counted =
    <A extends unknown[], R>(f: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      checks.count++;
      checks.started();
      await checks.gate;
      return f(...args);
    };
  return {
    ...real,
    verifyPassword: counted(real.verifyPassword),
    verifyNothing: counted(real.verifyNothing),
  };
});

const databases = testDatabases();

const SESSIONS = '/v1/admin/account/sessions';

function signIn(app: ParleyApp, email: string, password: string, address: string) {
  return app.inject({
    method: 'POST',
    url: SESSIONS,
    remoteAddress: address,
    payload: { email, password },
  });
}

/** An account with a password, made by the operator's service. */
async function person(t: TestApp, password = 'correct horse battery staple') {
  const email = uniqueEmail('person');
  await t.app.services.identity.createAccount(email, 'Person');
  await t.app.services.identity.setPassword(email, password);
  return { email, password };
}

describe.each(databases)('sign-in throttle under concurrency ($name)', ({ url }) => {
  let t: TestApp;
  /** A second app on the same database (PostgreSQL): another process behind the proxy. */
  let second: SecondProcess | undefined;
  /** The processes the concurrent attempts are spread over. */
  let apps: ParleyApp[];
  const clock = movableClock();
  beforeAll(async () => {
    t = await createTestApp({ clock: clock.now, ...(url ? { databaseUrl: url } : {}) });
    if (url) second = await secondProcess(t, url);
    apps = second ? [t.app, second.app] : [t.app];
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
  });

  it('checks at most 5 of 250 concurrent wrong passwords for one e-mail from one address; the rest get 429', async () => {
    const p = await person(t);
    checks.count = 0;
    const answers = await Promise.all(
      Array.from({ length: 250 }, (_, i) =>
        signIn(apps[i % apps.length] as ParleyApp, p.email, `wrong password ${i}`, '10.50.0.1'),
      ),
    );
    const statuses = answers.map((res) => res.statusCode);
    const refused = statuses.filter((s) => s === 401).length;
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(checks.count).toBeGreaterThanOrEqual(1);
    expect(checks.count).toBeLessThanOrEqual(5);
    expect(refused).toBe(checks.count);
    for (const res of answers.filter((r) => r.statusCode === 429)) expectError(res, 429, 'RateLimited');
  });

  it('checks at most 20 of 250 concurrent wrong passwords to as many e-mails from one address', async () => {
    checks.count = 0;
    const answers = await Promise.all(
      Array.from({ length: 250 }, (_, i) =>
        signIn(apps[i % apps.length] as ParleyApp, uniqueEmail(`guess${i}`), 'wrong password!!', '10.51.0.1'),
      ),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(checks.count).toBeLessThanOrEqual(20);
    expect(statuses.filter((s) => s === 401).length).toBe(checks.count);
    // Every attempt counted, checked or not: the address is refused now, whatever it sends.
    expectError(await signIn(t.app, t.owner.email, t.owner.password, '10.51.0.1'), 429, 'RateLimited');
  });

  it('checks one sign-in per e-mail at a time: a second one meanwhile gets 429 (Retry-After 1), from any address', async () => {
    const p = await person(t);
    let release = () => {};
    checks.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const inFlight = new Promise<void>((resolve) => {
      checks.started = resolve;
    });
    const first = signIn(t.app, p.email, 'wrong password!!', '10.52.0.1');
    try {
      await Promise.race([
        inFlight,
        first.then((res) => {
          throw new Error(`answered before its check started: ${res.statusCode} ${res.body}`);
        }),
      ]);
      const meanwhile = await signIn(second?.app ?? t.app, p.email, p.password, '10.52.0.2');
      const body = expectError(meanwhile, 429, 'RateLimited');
      expect(meanwhile.headers['retry-after']).toBe('1');
      expect(body.message).not.toContain(p.email);
    } finally {
      checks.started = () => {};
      checks.gate = undefined;
      release();
    }
    expectError(await first, 401, 'Unauthorized');
    expect((await signIn(t.app, p.email, p.password, '10.52.0.2')).statusCode).toBe(201);
  });

  it('lets an attempt in again once the one in flight has been gone IN_FLIGHT_MS (a process died while hashing)', async () => {
    const p = await person(t);
    // The row an attempt in flight leaves when its process dies before it settles.
    await t.db.kysely
      .insertInto('sign_in_failures')
      .values({ key: `busy:${p.email}`, failed_at: clock.now().toISOString(), attempt: 'crashed' })
      .execute();
    expectError(await signIn(t.app, p.email, p.password, '10.53.0.1'), 429, 'RateLimited');
    clock.advance(30_001);
    expect((await signIn(t.app, p.email, p.password, '10.53.0.1')).statusCode).toBe(201);
  });
});

describe.each(databases)('the ceiling of failures per e-mail from every address ($name)', ({ url }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { PARLEY_SIGN_IN_ACCOUNT_CEILING: '8' },
      ...(url ? { databaseUrl: url } : {}),
    });
  });
  afterAll(() => t.close());

  it('refuses every address once the e-mail has failed PARLEY_SIGN_IN_ACCOUNT_CEILING times from all of them', async () => {
    const p = await person(t);
    // A guess spread over four addresses, two failures each: under the per-address limit of 5 everywhere.
    for (let i = 0; i < 8; i++) {
      const res = await signIn(t.app, p.email, 'wrong password!!', `10.60.0.${i % 4}`);
      expectError(res, 401, 'Unauthorized');
    }
    checks.count = 0;
    const refused = await signIn(t.app, p.email, p.password, '10.60.1.1');
    expectError(refused, 429, 'RateLimited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    expect(checks.count).toBe(0);
    // Another e-mail from those addresses is not concerned.
    expect((await signIn(t.app, t.owner.email, t.owner.password, '10.60.0.1')).statusCode).toBe(201);
  });
});
