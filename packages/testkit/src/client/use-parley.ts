import { afterAll, beforeAll } from 'vitest';
import type { Client } from '../../../client/src/client.js';
import type { TestAppOptions } from '../server/harness.js';
import { type Parley, startParley } from './servers.js';

/** A server of `useParley`, with `admin`: its default client (the bootstrap owner, see Parley.client). */
export type LiveParley = Parley & { admin: Client };

/**
 * Starts the real server (startParley) in the enclosing suite's beforeAll and closes it after its last test.
 * Answers the handle, whose fields are set from that beforeAll on.
 */
export function useParley(options: TestAppOptions = {}): LiveParley {
  const live = {} as LiveParley;
  beforeAll(async () => {
    const p = await startParley(options);
    Object.assign(live, p, { admin: p.client() });
  });
  afterAll(() => live.close());
  return live;
}
