import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { canReadThreadNice, threadNices } from '../../../testkit/src/server/threads.js';
import { typescriptBootstrap } from './spawn.js';

/**
 * Runs `lowerThreadPriority(...nices)` (one call per value, in order) in a new worker thread: what the last call
 * returned, and that thread's nice value as /proc reports it while the thread still runs.
 */
async function inWorker(...nices: number[]): Promise<{ result: unknown; procNice: number | undefined }> {
  const module = new URL('./thread-priority.ts', import.meta.url).href;
  const script = [
    "import { parentPort } from 'node:worker_threads';",
    `import { lowerThreadPriority } from ${JSON.stringify(module)};`,
    'let result;',
    `for (const nice of ${JSON.stringify(nices)}) result = lowerThreadPriority(nice);`,
    'parentPort.postMessage(result ?? null);',
    "parentPort.once('message', () => parentPort.close());",
  ].join('\n');
  const entry = new URL(`data:text/javascript;base64,${Buffer.from(script).toString('base64')}`);
  const thread = new Worker(typescriptBootstrap(entry), { eval: true });
  const exited = new Promise((resolve) => thread.once('exit', resolve));
  const result = (await new Promise((resolve) => thread.once('message', resolve))) as {
    tid: number;
    nice: number;
  } | null;
  const procNice = result === null ? undefined : threadNices().get(result.tid);
  thread.postMessage('end');
  await exited;
  return { result, procNice };
}

describe.runIf(canReadThreadNice)('lowerThreadPriority (Linux: a nice value per thread)', () => {
  it('lowers the calling thread alone, as the kernel reports it', async () => {
    const main = threadNices().get(process.pid);
    const { result, procNice } = await inWorker(19);
    expect(result).toEqual({ tid: expect.any(Number), nice: 19 });
    expect(procNice).toBe(19);
    expect(threadNices().get(process.pid)).toBe(main); // the process's main thread keeps its own
  });

  it('never raises a thread again (that needs privileges), and clamps to 0–19', async () => {
    expect((await inWorker(10, 5)).procNice).toBe(10);
    expect((await inWorker(25)).procNice).toBe(19);
    expect((await inWorker(7)).procNice).toBe(7);
  });
});
