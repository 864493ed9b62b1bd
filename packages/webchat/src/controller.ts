import type { ChatUser, MessagePayload, WebchatConfiguration } from '@parley/protocol';
import { type ChatClient, chatClient, type UserFields } from './chat-client.js';
import { checkConfigCall, checkUser, isPlainObject } from './checks.js';
import { WebchatError } from './config.js';
import { Conversation } from './conversation.js';
import type { Emitter } from './emitter.js';
import { type Fail, failThrough } from './failure.js';
import { catalogLoaded, checkLocale, loadCatalog, type Strings } from './i18n.js';
import { Settings } from './settings.js';
import { storageKey } from './storage.js';
import { createStore, type Store } from './store.js';
import type { PublicWebchat, StartContext, WebchatImpl } from './types.js';
import { createUiActions, type UiActions } from './ui-actions.js';
import { UserSession } from './user-session.js';

/**
 * The webchat's behaviour behind the global object: the window state machine and the page's settings
 * here; the user (`UserSession`), the conversation with its live stream (`Conversation`) and the UI's
 * actions (`createUiActions`) in their own files; events through the instance's emitter.
 */
export class Controller implements WebchatImpl {
  readonly store: Store;
  private readonly emitter: Emitter;
  private readonly client: ChatClient;
  private readonly settings: Settings;
  private readonly user: UserSession;
  private readonly conversation: Conversation;
  private readonly fail: Fail;
  private readonly feedbackSent = new Map<string, Promise<unknown>>();
  private readonly scriptBase: string;

  constructor(context: StartContext, dashboard: PublicWebchat, apiUrl: string) {
    const { options } = context;
    this.emitter = context.emitter;
    this.fail = failThrough(this.emitter);
    this.scriptBase = context.scriptBase;
    const browser = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
    this.settings = new Settings(dashboard.configuration, dashboard.bot.name, browser);
    if (options.configuration !== undefined) {
      const error = this.settings.addConfiguration(options.configuration);
      if (error) this.emitter.emit('error', error);
    }
    const localeError = checkLocale(options.locale, options.strings);
    if (localeError) this.emitter.emit('error', localeError);
    else this.settings.setLocale(options.locale, options.strings);
    const config = this.settings.configuration();
    const botId = options.botId;
    this.client = chatClient({ apiUrl, botId, adminKey: () => this.store.get().config.adminKey });
    const key = storageKey(botId, options.clientId);
    this.user = new UserSession(this.client, key, config.storageLocation, (userId) =>
      this.store.set({ userId }),
    );
    this.store = createStore({
      open: false,
      config,
      layout: options.layout ?? 'embedded',
      messages: [],
      fromStart: false,
      streams: {},
      typing: false,
      unread: 0,
      userId: this.user.read().userId,
      status: 'idle',
      busy: false,
      feedback: {},
      debug: {},
      notice: undefined,
      locale: this.settings.locale,
      strings: this.settings.strings(),
      upload: undefined,
      handoff: undefined,
    });
    const { store, emitter, client, user, fail } = this;
    const localeTag = () => this.settings.localeTag;
    this.conversation = new Conversation({ store, emitter, client, user, fail, localeTag });
    if (options.user !== undefined) this.updateUser(options.user).catch(() => undefined);
  }

  /**
   * Loads the catalog of the current language (fetched once; English is built in) and shows its texts.
   * A catalog that cannot be loaded leaves English and answers `error`; a language changed meanwhile wins.
   */
  async loadLanguage(): Promise<void> {
    const locale = this.settings.locale;
    if (!catalogLoaded(locale)) {
      try {
        await loadCatalog(locale, this.scriptBase);
      } catch (error) {
        this.fail(error);
      }
      if (this.settings.locale !== locale) return;
    }
    this.store.set({ locale, strings: this.settings.strings() });
  }

  // ---- window state machine ----

  open(): void {
    if (this.store.get().open) return;
    this.store.set({ open: true });
    this.emitter.emit('webchat:opened', {});
    this.conversation.connect().catch(() => undefined);
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

  // ---- settings ----

  config(options: {
    configuration?: WebchatConfiguration;
    user?: UserFields;
    locale?: string;
    strings?: Partial<Strings>;
  }): void {
    const invalid = checkConfigCall(options);
    if (invalid) {
      this.fail(invalid);
      return;
    }
    if (options.locale !== undefined || options.strings !== undefined)
      this.settings.setLocale(options.locale, options.strings);
    if (options.configuration !== undefined) {
      this.settings.addConfiguration(options.configuration);
      const before = this.store.get().config;
      const config = this.settings.configuration();
      if (config.storageLocation !== before.storageLocation) this.user.relocate(config.storageLocation);
      this.store.set({ config });
    }
    if (options.locale !== undefined || options.strings !== undefined || options.configuration !== undefined)
      void this.loadLanguage();
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

  async updateUser(user: UserFields): Promise<void> {
    const invalid = checkUser(user);
    if (invalid) throw this.fail(invalid);
    try {
      const { created } = await this.user.run(async () => undefined, user);
      if (!created) await this.client.updateMe(user);
    } catch (error) {
      throw this.fail(error);
    }
  }

  async getUser(): Promise<ChatUser> {
    try {
      return (await this.user.run(() => this.client.getMe())).value;
    } catch (error) {
      throw this.fail(error);
    }
  }

  // ---- conversation ----

  restartConversation(): Promise<void> {
    return this.conversation.restart();
  }

  async sendMessage(message: string): Promise<void> {
    if (typeof message !== 'string' || message.trim() === '') {
      throw this.fail(new WebchatError('sendMessage(message): message must be a non-empty string'));
    }
    await this.conversation.send({ type: 'text', text: message });
  }

  async sendEvent(event: Record<string, unknown>): Promise<void> {
    if (!isPlainObject(event)) throw this.fail(new WebchatError('sendEvent(event): event must be an object'));
    const conversationId = await this.conversation.current();
    try {
      await this.client.createEvent(conversationId, event);
    } catch (error) {
      throw this.fail(error);
    }
  }

  /** The actions the UI calls. */
  actions(): UiActions {
    const { store, client, fail, feedbackSent, conversation } = this;
    return createUiActions({
      store,
      client,
      fail,
      feedbackSent,
      open: () => this.open(),
      close: () => this.close(),
      sendMessage: (text) => this.sendMessage(text),
      sendPayload: (payload: MessagePayload) => conversation.send(payload),
      requestPerson: (text) => conversation.send({ type: 'text', text }, { handoff: 'request' }),
      leaveEmail: (email) => conversation.send({ type: 'text', text: email }, { contactEmail: email }),
      restartConversation: () => this.restartConversation(),
      current: () => conversation.current(),
    });
  }
}
