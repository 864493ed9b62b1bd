import type { ChatSignal } from '@parley/protocol';
import { describe, expect, it, vi } from 'vitest';
import { checkConfigCall } from './checks.js';
import { PERSON_TYPING_SHOWN_MS, personTypingTimeout, signalChange } from './signals.js';
import { createStore, type UiState } from './store.js';

const state = (patch: Partial<UiState>) => ({ streams: {}, debug: {}, messages: [], ...patch }) as UiState;
const signal = (type: string, data: Record<string, unknown>) => ({ type, data }) as unknown as ChatSignal;

describe('what a live signal changes in the window', () => {
  it('appends streamed text per stream and drops an aborted stream', () => {
    const delta = signalChange(signal('message_stream_delta', { id: 's1', delta: 'lo' }), 'me');
    expect(delta?.(state({ streams: { s1: 'Hel' }, typing: true }))).toEqual({
      typing: false,
      streams: { s1: 'Hello' },
    });
    const abort = signalChange(signal('message_stream_abort', { id: 's1' }), 'me');
    expect(abort?.(state({ streams: { s1: 'Hel', s2: 'x' } }))).toEqual({ streams: { s2: 'x' } });
  });

  it("shows the others' typing but not the user's own, and keys debug details by the reply", () => {
    expect(signalChange(signal('typing_started', { userId: 'me' }), 'me')).toBeUndefined();
    expect(signalChange(signal('typing_started', { userId: 'bot' }), 'me')?.(state({}))).toEqual({
      typing: true,
    });
    // A person of the workspace (human handoff) is named while typing, and no longer once stopped.
    const person = { userId: 'agent_a', isBot: true, name: 'Dana' };
    expect(signalChange(signal('typing_started', person), 'me')?.(state({}))).toEqual({
      typing: true,
      typist: 'Dana',
    });
    const stopped = signalChange(signal('typing_stopped', person), 'me');
    expect(stopped?.(state({ typing: true, typist: 'Dana' }))).toStrictEqual({
      typing: false,
      typist: undefined,
    });
    const debug = signalChange(signal('debug', { replyId: 'r1', messageId: 'q1' }), 'me');
    expect(debug?.(state({ debug: { r1: [1] } }))).toEqual({
      debug: { r1: [1, { replyId: 'r1', messageId: 'q1' }] },
    });
  });

  it("takes a person's typing away once not told again for a while, and leaves the bot's", () => {
    vi.useFakeTimers();
    try {
      const store = createStore(state({ typing: true, typist: 'Dana' }));
      const renew = personTypingTimeout(store);
      renew();
      vi.advanceTimersByTime(PERSON_TYPING_SHOWN_MS - 1);
      renew();
      vi.advanceTimersByTime(PERSON_TYPING_SHOWN_MS - 1);
      expect(store.get()).toMatchObject({ typing: true, typist: 'Dana' });
      vi.advanceTimersByTime(1);
      expect(store.get()).toMatchObject({ typing: false, typist: undefined });
      // The bot typing since is not the person's: left as it is.
      renew();
      store.set({ typing: true, typist: undefined });
      vi.advanceTimersByTime(PERSON_TYPING_SHOWN_MS);
      expect(store.get().typing).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves messages, events, pings and deletions of the conversation to the conversation', () => {
    for (const type of ['message_created', 'event_created', 'ping', 'conversation_deleted'])
      expect(signalChange(signal(type, {}), 'me')).toBeUndefined();
  });
});

describe('the check of config()', () => {
  it('answers the first error: shape, then locale, then configuration, then user', () => {
    expect(checkConfigCall([])?.message).toMatch(/needs an object/);
    expect(checkConfigCall({ colour: 'red' })?.message).toMatch(/unknown option colour/);
    expect(checkConfigCall({ locale: 'xx', user: 1 })?.field).toBe('locale');
    expect(checkConfigCall({ configuration: { color: 1 }, user: 1 })?.message).toMatch(/configuration/);
    expect(checkConfigCall({ user: { age: 3 } })?.field).toBe('user.age');
    expect(checkConfigCall({ locale: 'fr', user: { name: 'Ada' } })).toBeUndefined();
  });
});
