/**
 * Runs `work` while timing this thread's event loop: `stallMs` is the longest gap between 10 ms timer ticks
 * (a stall at the very end counted too, when no tick ran after it). `work`'s error is thrown on.
 */
export async function loopStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let longest = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  try {
    const result = await work();
    return { result, stallMs: Math.max(longest, performance.now() - last) };
  } finally {
    clearInterval(tick);
  }
}
