import type { ChatSignal } from '@parley/protocol';
import type { Store, UiState } from './store.js';

/** A change of the UI state, computed from the state it applies to. */
export type StateChange = (state: UiState) => Partial<UiState>;

/**
 * What a live signal changes in the window, for the signals that only change the window (deletions,
 * typing, streamed text, debug details); undefined for the others. `me` is the chat user's id: the
 * user's own typing is not shown.
 */
export function signalChange(signal: ChatSignal, me: string | undefined): StateChange | undefined {
  switch (signal.type) {
    case 'message_deleted':
      return (s) => ({ messages: s.messages.filter((m) => m.id !== signal.data.id) });
    case 'typing_started':
    case 'typing_stopped':
      if (signal.data.userId === me) return undefined;
      // A person of the workspace is named (human handoff); the bot is not.
      if (signal.type === 'typing_stopped') return () => ({ typing: false, typist: undefined });
      return () => ({ typing: true, typist: signal.data.name });
    case 'message_stream_delta':
      return (s) => ({
        typing: false,
        streams: { ...s.streams, [signal.data.id]: (s.streams[signal.data.id] ?? '') + signal.data.delta },
      });
    case 'message_stream_abort':
      return (s) => {
        const streams = { ...s.streams };
        delete streams[signal.data.id];
        return { streams };
      };
    case 'debug': {
      // Keyed by the bot's reply when the server names it, else by the question it answers.
      const key = signal.data.replyId ?? signal.data.messageId ?? '_';
      return (s) => ({ debug: { ...s.debug, [key]: [...(s.debug[key] ?? []), signal.data] } });
    }
    default:
      return undefined;
  }
}

/** How long a person's "is typing" stays without being told again (their Console tells it every few seconds). */
export const PERSON_TYPING_SHOWN_MS = 12_000;

/**
 * Takes a person's typing (human handoff) away once it was not told again for `ms`: their Console tab may
 * have closed before it said they stopped. Call the answer at each `typing_started` naming a person. The
 * bot's typing is not timed: its reply job ends it.
 */
export function personTypingTimeout(store: Store, ms = PERSON_TYPING_SHOWN_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (store.get().typist !== undefined) store.set({ typing: false, typist: undefined });
    }, ms);
  };
}
