import type {
  ChatMessage,
  ChatSignal,
  ChatUser,
  MessagePayload,
  WebchatConfiguration,
} from '@parley/protocol';
import { type ChatClient, chatClient, type UserFields } from './chat-client.js';
import {
  checkConfiguration,
  mergeConfiguration,
  type ResolvedConfiguration,
  resolveConfiguration,
  WebchatError,
} from './config.js';
import type { Emitter } from './emitter.js';
import { checkLocale, resolveStrings, type StringKey, type Strings, shippedLocale } from './i18n.js';
import { type SessionStore, sessionStore, storageKey } from './storage.js';
import { createStore, type Notice, type Store, upsertMessage } from './store.js';
import type { StartContext, WebchatImpl } from './types.js';

/** What the public config endpoint answers. */
export interface PublicWebchat {
  bot: { id: string; name: string };
  configuration: WebchatConfiguration;
}

/** Actions the UI calls. */
export interface UiActions {
  open(): void;
  close(): void;
  send(text: string): void;
  sendPayload(payload: MessagePayload): void;
  /** Uploads files one after the other, each then sent as an image or file message. */
  upload(files: File[]): void;
  /** Thumbs up/down; a comment (after thumbs down) is sent with the value. */
  feedback(messageId: string, value: 'positive' | 'negative', comment?: string): void;
  restart(): void;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkUser(user: unknown): WebchatError | undefined {
  if (!isPlainObject(user))
    return new WebchatError('user must be an object {name?, pictureUrl?, data?, userKey?}');
  for (const [key, value] of Object.entries(user)) {
    if (!['name', 'pictureUrl', 'data', 'userKey'].includes(key)) {
      return new WebchatError(`user.${key} is not a user field (name, pictureUrl, data, userKey)`, [
        { field: `user.${key}`, message: 'is not a user field' },
      ]);
    }
    if (value === null || value === undefined) continue;
    if (key === 'data' ? !isPlainObject(value) : typeof value !== 'string') {
      return new WebchatError(`user.${key} must be ${key === 'data' ? 'an object' : 'a string'}`, [
        { field: `user.${key}`, message: key === 'data' ? 'must be an object' : 'must be a string' },
      ]);
    }
  }
  return undefined;
}

/**
 * The webchat's behaviour behind the global object: configuration layers, the window state machine,
 * the user and conversation, the live stream and the events.
 */
export class Controller implements WebchatImpl {
  readonly store: Store;
  private readonly emitter: Emitter;
  private readonly client: ChatClient;
  private readonly botId: string;
  private readonly clientId: string | undefined;
  private readonly layers: WebchatConfiguration[];
  private readonly botName: string;
  private session: SessionStore;
  private ready: Promise<string> | undefined;
  private userPromise: Promise<void> | undefined;
  private conversationId: string | undefined;
  private listening: AbortController | undefined;
  private readonly seen = new Set<string>();
  private locale = 'en';
  private readonly feedbackSent = new Map<string, Promise<unknown>>();
  private readonly stringLayers: Partial<Strings>[] = [];

  constructor(context: StartContext, dashboard: PublicWebchat, apiUrl: string) {
    const { options } = context;
    this.emitter = context.emitter;
    this.botId = options.botId;
    this.clientId = options.clientId;
    this.botName = dashboard.bot.name;
    this.layers = [dashboard.configuration];
    if (options.configuration !== undefined) {
      const { error, warnings } = checkConfiguration(options.configuration);
      if (error) this.emitter.emit('error', error);
      else {
        for (const warning of warnings) console.warn(`[parley] ${warning}`);
        this.layers.push(options.configuration);
      }
    }
    const localeError = checkLocale(options.locale, options.strings);
    if (localeError) this.emitter.emit('error', localeError);
    else this.applyLocale(options.locale, options.strings);
    const config = this.resolve();
    this.client = chatClient({ apiUrl, botId: this.botId, adminKey: () => this.store.get().config.adminKey });
    this.session = this.sessionFor(config.storageLocation);
    this.store = createStore({
      open: false,
      config,
      layout: options.layout ?? 'embedded',
      messages: [],
      streams: {},
      typing: false,
      unread: 0,
      userId: this.session.read().userId,
      status: 'idle',
      busy: false,
      feedback: {},
      debug: {},
      notice: undefined,
      locale: this.locale,
      strings: resolveStrings(this.locale, ...this.stringLayers),
      upload: undefined,
    });
    if (options.user !== undefined) this.updateUser(options.user).catch(() => undefined);
  }

  private applyLocale(locale: string | undefined, strings: Partial<Strings> | undefined): void {
    if (locale !== undefined) this.locale = shippedLocale(locale) ?? 'en';
    if (strings !== undefined) this.stringLayers.push(strings);
  }

  private resolve(): ResolvedConfiguration {
    return resolveConfiguration(mergeConfiguration(...this.layers), this.botName);
  }

  private sessionFor(location: 'localStorage' | 'sessionStorage'): SessionStore {
    let store: Storage | undefined;
    try {
      store = location === 'sessionStorage' ? window.sessionStorage : window.localStorage;
    } catch {
      store = undefined;
    }
    return sessionStore(store, storageKey(this.botId, this.clientId));
  }

  private fail(error: unknown): WebchatError {
    const failure =
      error instanceof WebchatError ? error : new WebchatError((error as Error)?.message ?? String(error));
    this.emitter.emit('error', failure);
    return failure;
  }

  // ---- window state machine ----

  open(): void {
    if (this.store.get().open) return;
    this.store.set({ open: true });
    this.emitter.emit('webchat:opened', {});
    this.connect().catch(() => undefined);
  }

  close(): void {
    if (this.store.get().layout === 'fullscreen' || !this.store.get().open) return;
    this.store.set({ open: false });
    this.emitter.emit('webchat:closed', {});
  }

  toggle(): void {
    if (this.store.get().open) this.close();
    else this.open();
  }

  // ---- configuration ----

  config(options: {
    configuration?: WebchatConfiguration;
    user?: UserFields;
    locale?: string;
    strings?: Partial<Strings>;
  }): void {
    if (!isPlainObject(options)) {
      this.fail(new WebchatError('config({configuration?, user?, locale?, strings?}) needs an object'));
      return;
    }
    const known = ['configuration', 'user', 'locale', 'strings'];
    const unknown = Object.keys(options).filter((k) => !known.includes(k));
    if (unknown.length > 0) {
      this.fail(new WebchatError(`config(): unknown option ${unknown.join(', ')} (${known.join(', ')})`));
      return;
    }
    const localeError = checkLocale(options.locale, options.strings);
    if (localeError) {
      this.fail(localeError);
      return;
    }
    if (options.locale !== undefined || options.strings !== undefined) {
      if (options.configuration !== undefined && checkConfiguration(options.configuration).error) {
        this.fail(checkConfiguration(options.configuration).error as WebchatError);
        return;
      }
      if (options.user !== undefined && checkUser(options.user)) {
        this.fail(checkUser(options.user) as WebchatError);
        return;
      }
      this.applyLocale(options.locale, options.strings);
      this.store.set({ locale: this.locale, strings: resolveStrings(this.locale, ...this.stringLayers) });
    }
    if (options.configuration !== undefined) {
      const { error, warnings } = checkConfiguration(options.configuration);
      if (error) {
        this.fail(error);
        return;
      }
      if (options.user !== undefined) {
        const userError = checkUser(options.user);
        if (userError) {
          this.fail(userError);
          return;
        }
      }
      for (const warning of warnings) console.warn(`[parley] ${warning}`);
      const before = this.store.get().config;
      this.layers.push(options.configuration);
      const config = this.resolve();
      if (config.storageLocation !== before.storageLocation) {
        const stored = this.session.read();
        this.session.clear();
        this.session = this.sessionFor(config.storageLocation);
        this.session.write(stored);
      }
      this.store.set({ config });
    }
    if (options.user !== undefined) this.updateUser(options.user).catch(() => undefined);
  }

  setUnreadMessageCount(count: number): void {
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
      this.fail(new WebchatError('setUnreadMessageCount(count): count must be a whole number ≥ 0'));
      return;
    }
    this.store.set({ unread: count });
  }

  // ---- user ----

  /** Makes sure a chat user exists (creating it, with `fields`, when none is stored). */
  private async ensureUser(fields: UserFields = {}): Promise<boolean> {
    const stored = this.session.read();
    if (stored.userKey && stored.userId) {
      this.client.setUserKey(stored.userKey);
      return false;
    }
    if (!this.userPromise) {
      this.userPromise = (async () => {
        const { user, key } = await this.client.createUser(fields);
        this.client.setUserKey(key);
        this.session.write({ userId: user.id, userKey: key, conversationId: undefined });
        this.store.set({ userId: user.id });
      })().finally(() => {
        this.userPromise = undefined;
      });
      await this.userPromise;
      return true;
    }
    await this.userPromise;
    return false;
  }

  /** Runs a call with the stored user; a key the server no longer knows (401) starts a new user once. */
  private async withUser<T>(
    run: () => Promise<T>,
    fields?: UserFields,
  ): Promise<{ value: T; created: boolean }> {
    let created = await this.ensureUser(fields);
    try {
      return { value: await run(), created };
    } catch (error) {
      if ((error as { status?: number }).status !== 401 || created) throw error;
      this.session.clear();
      this.client.setUserKey(undefined);
      created = await this.ensureUser(fields);
      return { value: await run(), created };
    }
  }

  async updateUser(user: UserFields): Promise<void> {
    const invalid = checkUser(user);
    if (invalid) throw this.fail(invalid);
    try {
      const { created } = await this.withUser(async () => undefined, user);
      if (!created) await this.client.updateMe(user);
    } catch (error) {
      throw this.fail(error);
    }
  }

  async getUser(): Promise<ChatUser> {
    try {
      return (await this.withUser(() => this.client.getMe())).value;
    } catch (error) {
      throw this.fail(error);
    }
  }

  // ---- conversation (the ready moment) ----

  /** Connects once: user, conversation (resumed from storage or new), history, live stream. Emits webchat:ready. */
  private connect(): Promise<string> {
    if (!this.ready) {
      this.store.set({ status: 'connecting' });
      this.ready = this.doConnect().then(
        (conversationId) => {
          this.store.set({ status: 'ready', notice: undefined });
          this.emitter.emit('webchat:ready', { conversationId });
          return conversationId;
        },
        (error: unknown) => {
          this.ready = undefined;
          const failure = this.fail(error);
          this.store.set({ status: 'error', notice: { key: 'errorConnect' } });
          throw failure;
        },
      );
    }
    return this.ready;
  }

  private async doConnect(): Promise<string> {
    const { value: conversation, created } = await this.withUser(async () => {
      const storedId = this.session.read().conversationId;
      if (storedId) {
        try {
          return { id: (await this.client.getConversation(storedId)).id, created: false };
        } catch (error) {
          const status = (error as { status?: number }).status;
          if (status !== 404 && status !== 403) throw error;
        }
      }
      return { id: (await this.client.createConversation()).id, created: true };
    });
    this.session.write({ conversationId: conversation.id });
    await this.enter(conversation.id);
    if (conversation.created || created)
      this.emitter.emit('conversation', { conversationId: conversation.id });
    return conversation.id;
  }

  /**
   * Shows a conversation: opens its live stream first (from then on nothing is missed), then loads its
   * latest messages; a reconnection reloads them too, in case the stream could not resume.
   */
  private async enter(conversationId: string): Promise<void> {
    this.listening?.abort();
    this.conversationId = conversationId;
    this.store.set({ messages: [], streams: {}, typing: false, feedback: {}, debug: {} });
    const abort = new AbortController();
    this.listening = abort;
    try {
      await this.client.listen(
        conversationId,
        {
          onSignal: (signal) => this.onSignal(conversationId, signal),
          onOpen: (again) => {
            if (again) this.loadHistory(conversationId, true).catch((error: unknown) => this.fail(error));
          },
          onError: (error, fatal) => {
            this.fail(error);
            if (fatal) this.store.set({ notice: { key: 'errorConnection' } });
          },
        },
        abort.signal,
      );
      await this.loadHistory(conversationId);
    } catch (error) {
      abort.abort();
      throw error;
    }
  }

  /**
   * Merges the latest page of messages (newest first on the wire) into the list. History is not emitted
   * as `message` events, except (`emitNew`) messages missed while the stream was reconnecting.
   */
  private async loadHistory(conversationId: string, emitNew = false): Promise<void> {
    const page = await this.client.listMessages(conversationId);
    if (conversationId !== this.conversationId) return;
    if (emitNew) {
      for (const message of [...page.messages].reverse())
        if (!this.seen.has(message.id)) this.addMessage(message);
    }
    this.store.set((s) => {
      let list = s.messages;
      const feedback = { ...s.feedback };
      for (const message of page.messages) {
        this.seen.add(message.id);
        list = upsertMessage(list, message).list;
        if (message.feedback && !feedback[message.id]) feedback[message.id] = message.feedback.value;
      }
      return { messages: list, feedback };
    });
  }

  private addMessage(message: ChatMessage): void {
    if (message.conversationId !== this.conversationId) return;
    const { list, added } = upsertMessage(this.store.get().messages, message);
    const patch: Partial<import('./store.js').UiState> = { messages: list };
    if (message.isBot) {
      patch.typing = false;
      patch.streams = {};
    }
    this.store.set(patch);
    if (added && !this.seen.has(message.id)) {
      this.seen.add(message.id);
      this.emitter.emit('message', message);
    }
  }

  private onSignal(conversationId: string, signal: ChatSignal): void {
    if (conversationId !== this.conversationId) return;
    const me = this.store.get().userId;
    switch (signal.type) {
      case 'message_created':
      case 'message_updated':
        this.addMessage(signal.data);
        break;
      case 'message_deleted':
        this.store.set((s) => ({ messages: s.messages.filter((m) => m.id !== signal.data.id) }));
        break;
      case 'event_created':
        if (signal.data.userId !== me) this.emitter.emit('customEvent', signal.data.payload);
        break;
      case 'typing_started':
      case 'typing_stopped':
        if (signal.data.userId !== me) this.store.set({ typing: signal.type === 'typing_started' });
        break;
      case 'message_stream_delta':
        this.store.set((s) => ({
          typing: false,
          streams: { ...s.streams, [signal.data.id]: (s.streams[signal.data.id] ?? '') + signal.data.delta },
        }));
        break;
      case 'message_stream_complete':
        break;
      case 'message_stream_abort':
        this.store.set((s) => {
          const streams = { ...s.streams };
          delete streams[signal.data.id];
          return { streams };
        });
        break;
      case 'debug': {
        // Keyed by the bot's reply when the server names it, else by the question it answers.
        const key = signal.data.replyId ?? signal.data.messageId ?? '_';
        this.store.set((s) => ({ debug: { ...s.debug, [key]: [...(s.debug[key] ?? []), signal.data] } }));
        break;
      }
      case 'conversation_deleted':
        // The conversation is gone (deleted through the API): stop listening and start a new one.
        this.listening?.abort();
        this.session.write({ conversationId: undefined });
        this.restartConversation().catch(() => undefined);
        break;
      case 'participant_added':
      case 'participant_removed':
      case 'ping':
        break;
      default:
        break;
    }
  }

  /** The conversation to send to: connects first; after a restart, the newest one. */
  private async current(): Promise<string> {
    const connected = await this.connect();
    return this.conversationId ?? connected;
  }

  async restartConversation(): Promise<void> {
    await this.connect();
    try {
      const conversation = await this.withUser(() => this.client.createConversation());
      this.session.write({ conversationId: conversation.value.id });
      await this.enter(conversation.value.id);
      this.emitter.emit('conversation', { conversationId: conversation.value.id });
    } catch (error) {
      throw this.fail(error);
    }
  }

  async sendMessage(message: string): Promise<void> {
    if (typeof message !== 'string' || message.trim() === '') {
      throw this.fail(new WebchatError('sendMessage(message): message must be a non-empty string'));
    }
    await this.sendPayload({ type: 'text', text: message });
  }

  private async sendPayload(payload: MessagePayload): Promise<void> {
    const conversationId = await this.current();
    try {
      const message = await this.client.createMessage(conversationId, payload);
      this.addMessage(message);
    } catch (error) {
      throw this.fail(error);
    }
  }

  async sendEvent(event: Record<string, unknown>): Promise<void> {
    if (!isPlainObject(event)) throw this.fail(new WebchatError('sendEvent(event): event must be an object'));
    const conversationId = await this.current();
    try {
      await this.client.createEvent(conversationId, event);
    } catch (error) {
      throw this.fail(error);
    }
  }

  /** Uploads one file and sends it as an image or file message; the window shows its progress. */
  private async uploadOne(file: File): Promise<void> {
    const conversationId = await this.current();
    let url: string;
    this.store.set({ upload: { name: file.name, loaded: 0, total: file.size } });
    try {
      url = await this.client.uploadFile(conversationId, file, (loaded, total) =>
        this.store.set({ upload: { name: file.name, loaded, total } }),
      );
    } catch (error) {
      const failure = this.fail(error);
      const key: StringKey =
        (error as { status?: number }).status === 413 ? 'errorUploadTooLarge' : 'errorUpload';
      throw Object.assign(failure, { notice: { key, values: { name: file.name } } });
    } finally {
      this.store.set({ upload: undefined });
    }
    await this.sendPayload(
      file.type.startsWith('image/')
        ? { type: 'image', imageUrl: url }
        : { type: 'file', fileUrl: url, title: file.name },
    );
  }

  /** The actions the UI calls (errors go to the `error` event and, as a sentence, to the window's notice). */
  actions(): UiActions {
    const report = (promise: Promise<unknown>, key: StringKey) =>
      promise
        .then(() => this.store.set({ notice: undefined }))
        .catch((error: unknown) =>
          this.store.set({ notice: (error as { notice?: Notice }).notice ?? { key } }),
        );
    const busy = (promise: Promise<unknown>, key: StringKey) => {
      this.store.set({ busy: true });
      return report(
        promise.finally(() => this.store.set({ busy: false })),
        key,
      );
    };
    return {
      open: () => this.open(),
      close: () => this.close(),
      send: (text) => void busy(this.sendMessage(text), 'errorSend'),
      sendPayload: (payload) => void busy(this.sendPayload(payload), 'errorSend'),
      upload: (files) =>
        void busy(
          (async () => {
            for (const file of files) await this.uploadOne(file);
          })(),
          'errorSend',
        ),
      feedback: (messageId, value, comment) => {
        const previous = this.store.get().feedback[messageId];
        this.store.set((s) => ({ feedback: { ...s.feedback, [messageId]: value } }));
        // One request at a time per message: a comment sent right after the thumbs down must land last.
        const sent = (this.feedbackSent.get(messageId) ?? Promise.resolve())
          .catch(() => undefined)
          .then(() => this.client.feedback(messageId, value, comment));
        this.feedbackSent.set(messageId, sent);
        void report(
          sent.catch((error: unknown) => {
            this.store.set((s) => {
              const feedback = { ...s.feedback };
              if (previous) feedback[messageId] = previous;
              else delete feedback[messageId];
              return { feedback };
            });
            throw this.fail(error);
          }),
          'errorFeedback',
        );
      },
      restart: () => void report(this.restartConversation(), 'errorRestart'),
    };
  }
}
