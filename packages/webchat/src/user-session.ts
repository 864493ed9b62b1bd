import type { ChatClient, UserFields } from './chat-client.js';
import { type SessionStore, type StoredSession, sessionStore } from './storage.js';

/** Where the session is kept (the configuration's `storageLocation`). */
export type StorageLocation = 'localStorage' | 'sessionStorage';

/** The page's Web Storage of that kind, or undefined where reading it throws (storage disabled). */
function webStorage(location: StorageLocation): Storage | undefined {
  try {
    return location === 'sessionStorage' ? window.sessionStorage : window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The chat user and its credentials: the stored session (user id, user key, conversation id) and the
 * user key the client sends. A user is created on first need; a key the server no longer knows starts
 * a new user once.
 */
export class UserSession {
  private storage: SessionStore;
  private creating: Promise<void> | undefined;

  constructor(
    private readonly client: ChatClient,
    /** The storage key of this bot's (and client id's) session. */
    private readonly key: string,
    location: StorageLocation,
    /** Called with the id of a user just created. */
    private readonly onCreated: (userId: string) => void,
  ) {
    this.storage = sessionStore(webStorage(location), key);
  }

  /** The stored session. */
  read(): StoredSession {
    return this.storage.read();
  }

  /** Merges fields into the stored session (undefined removes one). */
  write(patch: { [K in keyof StoredSession]?: string | undefined }): void {
    this.storage.write(patch);
  }

  /** Moves the stored session to another storage (the configuration's storageLocation changed). */
  relocate(location: StorageLocation): void {
    const stored = this.storage.read();
    this.storage.clear();
    this.storage = sessionStore(webStorage(location), this.key);
    this.storage.write(stored);
  }

  /** Makes sure a chat user exists (creating it, with `fields`, when none is stored); true when created. */
  async ensure(fields: UserFields = {}): Promise<boolean> {
    const stored = this.storage.read();
    if (stored.userKey && stored.userId) {
      this.client.setUserKey(stored.userKey);
      return false;
    }
    if (this.creating) {
      await this.creating;
      return false;
    }
    this.creating = (async () => {
      const { user, key } = await this.client.createUser(fields);
      this.client.setUserKey(key);
      this.storage.write({ userId: user.id, userKey: key, conversationId: undefined });
      this.onCreated(user.id);
    })().finally(() => {
      this.creating = undefined;
    });
    await this.creating;
    return true;
  }

  /** Runs a call as the stored user; a key the server no longer knows (401) starts a new user once. */
  async run<T>(call: () => Promise<T>, fields?: UserFields): Promise<{ value: T; created: boolean }> {
    let created = await this.ensure(fields);
    try {
      return { value: await call(), created };
    } catch (error) {
      if ((error as { status?: number }).status !== 401 || created) throw error;
      this.storage.clear();
      this.client.setUserKey(undefined);
      created = await this.ensure(fields);
      return { value: await call(), created };
    }
  }
}
