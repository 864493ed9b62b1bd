import { afterEach, describe, expect, it } from 'vitest';
import { WorkerChannel } from './channel.js';

type Reply = { id: number; echo: string } | { note: string };

const ENTRY = new URL(
  `../../../testkit/src/server/echo-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
);
const started: WorkerChannel<Reply>[] = [];

function channel(options: { onUnanswered?: (m: Reply) => void; onEnd?: (message: string) => void } = {}) {
  const c = new WorkerChannel<Reply>(ENTRY, { label: 'the echo worker', ...options });
  started.push(c);
  return c;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.worker.terminate()));
});

describe('WorkerChannel', () => {
  it('settles each request with the reply of its id, in any order', async () => {
    const c = channel();
    const [a, b] = await Promise.all([
      c.request({ kind: 'echo', text: 'a' }),
      c.request({ kind: 'echo', text: 'b' }),
    ]);
    expect(a).toEqual({ id: 1, echo: 'a' });
    expect(b).toEqual({ id: 2, echo: 'b' });
    expect(c.pending).toBe(0);
    expect(c.ended).toBeUndefined();
  });

  it('hands a message that answers no request to onUnanswered', async () => {
    const notes: Reply[] = [];
    const c = channel({ onUnanswered: (m) => notes.push(m) });
    c.post({ kind: 'note' });
    await c.request({ kind: 'echo', text: 'after' }); // the worker answers in order: the note came first
    expect(notes).toEqual([{ note: 'by itself' }]);
  });

  it('fails every awaited request when the worker exits, tells the owner once, and refuses later requests', async () => {
    const ends: string[] = [];
    const c = channel({ onEnd: (message) => ends.push(message) });
    const waiting = c.request({ kind: 'hold' });
    c.post({ kind: 'exit', code: 3 });
    await expect(waiting).rejects.toThrow('the echo worker exited with code 3');
    expect(ends).toEqual(['the echo worker exited with code 3']);
    expect(c.ended).toBe('the echo worker exited with code 3');
    await expect(c.request({ kind: 'echo', text: 'later' })).rejects.toThrow(
      'the echo worker exited with code 3',
    );
  });

  it('fails every awaited request with the error the worker threw', async () => {
    const ends: string[] = [];
    const c = channel({ onEnd: (message) => ends.push(message) });
    const waiting = c.request({ kind: 'hold' });
    const exited = new Promise((resolve) => c.worker.once('exit', resolve));
    c.post({ kind: 'throw', message: 'boom' });
    await expect(waiting).rejects.toThrow('the echo worker failed: boom');
    await exited;
    expect(ends).toEqual(['the echo worker failed: boom']);
  });

  it('fails what awaits when its owner says so, and the worker still answers', async () => {
    const c = channel();
    const waiting = c.request({ kind: 'hold' });
    c.fail('closed by its owner');
    await expect(waiting).rejects.toThrow('closed by its owner');
    expect(c.pending).toBe(0);
    expect(await c.request({ kind: 'echo', text: 'still runs' })).toEqual({ id: 2, echo: 'still runs' });
  });
});
