import type { ChatMessage, VisitorHandoff } from '@parley/protocol';
import type { ResolvedConfiguration } from './config.js';
import type { StringKey, Strings } from './i18n.js';

/** An error sentence to show in the window: a string key and its placeholders. */
export interface Notice {
  key: StringKey;
  values?: Record<string, string>;
}

/** Everything the UI renders. */
export interface UiState {
  open: boolean;
  config: ResolvedConfiguration;
  layout: 'embedded' | 'fullscreen';
  /** Messages of the current conversation, oldest first, one per id. */
  messages: ChatMessage[];
  /**
   * Whether `messages` begins at the conversation's start (its history is loaded and has no older page):
   * then the greeting is shown above them, and the suggested questions too while there are none.
   */
  fromStart: boolean;
  /** Text of bot messages being generated, by stream id. */
  streams: Record<string, string>;
  typing: boolean;
  /** The name of the person of the workspace typing (human handoff); undefined while the bot types. */
  typist?: string | undefined;
  unread: number;
  userId: string | undefined;
  status: 'idle' | 'connecting' | 'ready' | 'error';
  busy: boolean;
  feedback: Record<string, 'positive' | 'negative'>;
  /** Debug details by message id (sessions with an adminKey). */
  debug: Record<string, unknown[]>;
  /** Last error to show in the window (cleared by the next success). */
  notice: Notice | undefined;
  /** The language tag of the UI texts (`lang` of the window). */
  locale: string;
  /** The UI texts: the locale's, with the page's overrides. */
  strings: Strings;
  /** Who answers the conversation (human handoff); undefined while the bot does and no person ever did. */
  handoff: VisitorHandoff | undefined;
  /** The file being uploaded: bytes sent so far of its size. */
  upload: { name: string; loaded: number; total: number } | undefined;
}

/** A tiny observable store. */
export function createStore(initial: UiState) {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(patch: Partial<UiState> | ((s: UiState) => Partial<UiState>)) {
      const next = typeof patch === 'function' ? patch(state) : patch;
      state = { ...state, ...next };
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
/** The UI store. */
export type Store = ReturnType<typeof createStore>;

/** Inserts or replaces a message, keeping the list ordered by time then id; answers whether it was new. */
export function upsertMessage(
  list: ChatMessage[],
  message: ChatMessage,
): { list: ChatMessage[]; added: boolean } {
  const index = list.findIndex((m) => m.id === message.id);
  if (index >= 0) {
    const copy = list.slice();
    copy[index] = message;
    return { list: copy, added: false };
  }
  const copy = [...list, message];
  copy.sort((a, b) =>
    a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
  );
  return { list: copy, added: true };
}
