import { describe, expect, it } from 'vitest';
import { type KeyValueStore, sessionStore, storageKey } from './storage.js';
import { upsertMessage } from './store.js';

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
}

describe('webchat session storage', () => {
  it('namespaces keys per bot and client id', () => {
    expect(storageKey('bot1')).toBe('parley:webchat:bot1');
    expect(storageKey('bot1', 'site-a')).toBe('parley:webchat:bot1:site-a');
  });

  it('writes, merges, removes fields and clears; two bots do not share a session', () => {
    const store = memoryStore();
    const a = sessionStore(store, storageKey('a'));
    const b = sessionStore(store, storageKey('b'));
    a.write({ userId: 'u1', userKey: 'k1' });
    a.write({ conversationId: 'c1' });
    expect(a.read()).toEqual({ userId: 'u1', userKey: 'k1', conversationId: 'c1' });
    expect(b.read()).toEqual({});
    a.write({ conversationId: undefined });
    expect(a.read()).toEqual({ userId: 'u1', userKey: 'k1' });
    a.clear();
    expect(store.data.size).toBe(0);
  });

  it('ignores corrupt values and unknown fields', () => {
    const store = memoryStore();
    store.setItem('k', '{"userId": 5, "userKey": "x", "adminKey": "no"}');
    expect(sessionStore(store, 'k').read()).toEqual({ userKey: 'x' });
    store.setItem('k', 'not json');
    expect(sessionStore(store, 'k').read()).toEqual({});
  });

  it('falls back to memory when storage throws', () => {
    const broken: KeyValueStore = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const s = sessionStore(broken, 'k');
    s.write({ userId: 'u' });
    expect(s.read()).toEqual({ userId: 'u' });
  });
});

describe('message list', () => {
  const m = (id: string, createdAt: string) =>
    ({
      id,
      createdAt,
      conversationId: 'c',
      userId: 'u',
      isBot: false,
      payload: { type: 'text', text: id },
    }) as const;

  it('keeps one message per id, ordered by time then id', () => {
    let list = upsertMessage([], m('b', '2026-01-01T00:00:02Z')).list;
    list = upsertMessage(list, m('a', '2026-01-01T00:00:01Z')).list;
    const again = upsertMessage(list, m('a', '2026-01-01T00:00:01Z'));
    expect(again.added).toBe(false);
    expect(again.list.map((x) => x.id)).toEqual(['a', 'b']);
  });
});
