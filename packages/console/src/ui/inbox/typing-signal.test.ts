import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TYPING_IDLE_MS, TypingSignal } from './typing-signal.js';

describe("the reply box's typing signal", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const signal = () => {
    const sent: boolean[] = [];
    // Fake timers fake Date.now too: the default clock follows them.
    const typing = new TypingSignal(async (t) => {
      sent.push(t);
    });
    return { sent, typing };
  };

  it('tells "typing" at the first key, again at most every few seconds, and "stopped" after an idle spell', () => {
    const { sent, typing } = signal();
    typing.input();
    expect(sent).toEqual([true]);
    // Keys every second for 9 s: told again at 4 s and 8 s, never stopped meanwhile.
    for (let i = 0; i < 9; i++) {
      vi.advanceTimersByTime(1000);
      typing.input();
    }
    expect(sent).toEqual([true, true, true]);
    vi.advanceTimersByTime(TYPING_IDLE_MS - 1);
    expect(sent).toEqual([true, true, true]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([true, true, true, false]);
    // The next key starts anew at once.
    typing.input();
    expect(sent).toEqual([true, true, true, false, true]);
  });

  it('tells "stopped" once at send or blur, and nothing when it never told "typing"', () => {
    const { sent, typing } = signal();
    typing.stop();
    expect(sent).toEqual([]);
    typing.input();
    typing.stop();
    typing.stop();
    vi.advanceTimersByTime(TYPING_IDLE_MS * 2);
    expect(sent).toEqual([true, false]);
  });

  it('drops a failed call (the reply matters, not the indicator)', async () => {
    const typing = new TypingSignal(() => Promise.reject(new Error('409')));
    typing.input();
    typing.stop();
    await vi.runAllTimersAsync();
  });
});
