/** What the webchat keeps between page loads (never the adminKey). */
export interface StoredSession {
  userId?: string;
  userKey?: string;
  conversationId?: string;
}

/** The part of the Web Storage API the webchat uses. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The storage key of one bot's session (and client id, if several embeds of one bot share a page). */
export function storageKey(botId: string, clientId?: string): string {
  return `parley:webchat:${botId}${clientId ? `:${clientId}` : ''}`;
}

/**
 * One bot's session in local or session storage, namespaced per bot. A store that throws (storage
 * disabled, quota) degrades to memory for this page.
 */
export function sessionStore(store: KeyValueStore | undefined, key: string) {
  let memory: StoredSession = {};
  const read = (): StoredSession => {
    try {
      const raw = store?.getItem(key);
      if (!raw) return { ...memory };
      const parsed = JSON.parse(raw) as unknown;
      if (typeof parsed !== 'object' || parsed === null) return {};
      const out: StoredSession = {};
      for (const field of ['userId', 'userKey', 'conversationId'] as const) {
        const value = (parsed as Record<string, unknown>)[field];
        if (typeof value === 'string' && value) out[field] = value;
      }
      return out;
    } catch {
      return { ...memory };
    }
  };
  return {
    read,
    /** Merges fields into the stored session (undefined removes a field). */
    write(patch: { [K in keyof StoredSession]?: string | undefined }) {
      const next: StoredSession = { ...read() };
      for (const [field, value] of Object.entries(patch) as [keyof StoredSession, string | undefined][]) {
        if (value === undefined) delete next[field];
        else next[field] = value;
      }
      memory = next;
      try {
        store?.setItem(key, JSON.stringify(next));
      } catch {
        // storage unavailable: memory only
      }
    },
    clear() {
      memory = {};
      try {
        store?.removeItem(key);
      } catch {
        // storage unavailable
      }
    },
  };
}
/** A session store. */
export type SessionStore = ReturnType<typeof sessionStore>;
