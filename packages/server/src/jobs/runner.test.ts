import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../../../testkit/src/server/recording-logger.js';
import { eventually } from '../../../testkit/src/shared/eventually.js';
import { foregroundGate } from './foreground.js';
import type { JobQueue } from './queue.js';
import type { JobDefinition, JobSet } from './registry.js';
import { jobRunner } from './runner.js';

/** A queue that records which job sets its workers asked for, and finds `jobs` jobs in all. */
function fakeQueue(jobs: number) {
  const asked: JobSet[] = [];
  let left = jobs;
  const queue: JobQueue<Record<string, unknown>> = {
    workerId: 'w_test',
    enqueue: async () => 'job_x',
    get: async () => undefined,
    runOne: async (set) => {
      asked.push(set);
      if (left === 0) return false;
      left -= 1;
      return true;
    },
  };
  return { queue: queue as unknown as JobQueue, asked, left: () => left };
}

const job = (kind: string): JobDefinition => ({
  kind,
  payload: Type.Unknown(),
  run: async () => undefined,
  timeoutMs: 1_000,
  maxAttempts: 1,
  backoff: { baseMs: 10, maxMs: 100 },
});

describe('periodic tasks of the job runner', () => {
  it('runs a task once the injected clock reaches it, in the order scheduled, then every everyMs', async () => {
    let now = Date.parse('2026-05-01T00:00:00Z');
    const runner = jobRunner({
      queue: fakeQueue(0).queue,
      clock: () => new Date(now),
      logger: recordingLogger(),
    });
    const ran: string[] = [];
    runner.schedule({ name: 'hourly', everyMs: 3_600_000, run: async () => void ran.push('hourly') });
    runner.schedule({ name: 'minutely', everyMs: 60_000, run: async () => void ran.push('minutely') });
    runner.schedule({
      name: 'soon-then-hourly',
      everyMs: 3_600_000,
      firstAfterMs: 60_000,
      run: async () => void ran.push('soon-then-hourly'),
    });
    await runner.tick();
    expect(ran).toEqual([]);
    now += 59_999;
    await runner.tick();
    expect(ran).toEqual([]);
    now += 1;
    await runner.tick();
    expect(ran).toEqual(['minutely', 'soon-then-hourly']);
    await runner.tick();
    expect(ran).toEqual(['minutely', 'soon-then-hourly']);
    ran.length = 0;
    now += 3_540_000; // an hour after the start
    await runner.tick();
    expect(ran).toEqual(['hourly', 'minutely']);
    now += 60_000;
    await runner.tick();
    expect(ran).toEqual(['hourly', 'minutely', 'minutely', 'soon-then-hourly']);
  });

  it('logs a failing task with its name and still runs the others', async () => {
    let now = 0;
    const logger = recordingLogger();
    const runner = jobRunner({ queue: fakeQueue(0).queue, clock: () => new Date(now), logger });
    const ran: string[] = [];
    runner.schedule({ name: 'first', everyMs: 1_000, run: async () => void ran.push('first') });
    runner.schedule({
      name: 'broken',
      everyMs: 1_000,
      run: async () => {
        throw new Error('disk on fire');
      },
    });
    runner.schedule({ name: 'last', everyMs: 1_000, run: async () => void ran.push('last') });
    now += 1_000;
    await runner.tick();
    expect(ran).toEqual(['first', 'last']);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        task: 'broken',
        msg: 'periodic task broken failed',
        err: expect.objectContaining({ message: 'disk on fire' }),
      }),
    );
    // It is tried again at its next time, like the others.
    now += 1_000;
    await runner.tick();
    expect(ran).toEqual(['first', 'last', 'first', 'last']);
  });

  it('runs overlapping tick() calls one after another, never a task twice at once', async () => {
    let now = 0;
    const runner = jobRunner({
      queue: fakeQueue(0).queue,
      clock: () => new Date(now),
      logger: recordingLogger(),
    });
    let running = 0;
    let most = 0;
    let runs = 0;
    let firstStarted = () => {};
    const started = new Promise<void>((resolve) => {
      firstStarted = resolve;
    });
    runner.schedule({
      name: 'slow',
      everyMs: 10,
      run: async () => {
        runs += 1;
        running += 1;
        most = Math.max(most, running);
        firstStarted();
        // In flight across a turn of the event loop: a second run started by the second tick would overlap it.
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
      },
    });
    now += 10;
    const first = runner.tick();
    await started;
    // Due again while the first run is in flight.
    now += 10;
    await Promise.all([first, runner.tick()]);
    expect(runs).toBe(2);
    expect(most).toBe(1);
  });
});

describe('the started job runner', () => {
  it('checks its periodic tasks by itself, and its pools ask the queue for their own jobs until stopped', async () => {
    let now = 0;
    const fake = fakeQueue(3);
    const runner = jobRunner({
      queue: fake.queue,
      clock: () => new Date(now),
      logger: recordingLogger(),
      checkMs: 5,
    });
    const indexing = runner.workers({
      name: 'indexing',
      jobs: [job('index_file')],
      concurrency: 2,
      pollMs: 5,
    });
    runner.workers({
      name: 'chat',
      jobs: [job('chat_reply'), job('chat_webhook')],
      concurrency: 1,
      pollMs: 5,
    });
    expect(Object.keys(indexing)).toEqual(['index_file']);
    let ticks = 0;
    runner.schedule({ name: 'count', everyMs: 1_000, run: async () => void ticks++ });
    const stop = runner.start();
    now += 1_000;
    await eventually(async () => ticks > 0 && fake.left() === 0, 10_000, 0, 'the tick and the jobs run');
    await stop();
    expect(ticks).toBe(1);
    expect(fake.left()).toBe(0);
    const kinds = new Set(fake.asked.map((set) => Object.keys(set).join(',')));
    expect(kinds).toEqual(new Set(['index_file', 'chat_reply,chat_webhook']));
    // A negative check, with no event to wait for: a worker left polling (every 5 ms) would ask again meanwhile.
    const asked = fake.asked.length;
    const fourPolls = 20;
    await new Promise((r) => setTimeout(r, fourPolls));
    expect(fake.asked.length).toBe(asked);
  });
});

describe('a background pool', () => {
  it('claims no job while a foreground request is in flight, and goes on once it ends', async () => {
    const fake = fakeQueue(2);
    const gate = foregroundGate({ maxWaitMs: 600_000 });
    const runner = jobRunner({ queue: fake.queue, clock: () => new Date(0), logger: recordingLogger() });
    runner.workers({
      name: 'indexing',
      jobs: [job('index_file')],
      concurrency: 1,
      pollMs: 5,
      background: gate,
    });
    runner.workers({ name: 'chat', jobs: [job('chat_reply')], concurrency: 1, pollMs: 5 });
    const searching = gate.enter();
    const stop = runner.start();
    // The chat pool (not background) asks the queue; the indexing worker waits on the gate, asking nothing.
    await eventually(
      async () => gate.waiting === 1 && fake.asked.length > 0,
      10_000,
      0,
      'the pools to start',
    );
    expect(fake.asked.every((set) => Object.keys(set).join() === 'chat_reply')).toBe(true);
    searching();
    await eventually(
      async () => fake.asked.some((set) => 'index_file' in set),
      10_000,
      0,
      'the indexing worker to ask for its jobs',
    );
    await stop();
    expect(gate.outcomes.foreground_ended).toBe(1);
  });
});
