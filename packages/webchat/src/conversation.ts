import type { ChatMessage, ChatSignal, MessagePayload, VisitorHandoff } from '@parley/protocol';
import type { ChatClient } from './chat-client.js';
import type { Emitter } from './emitter.js';
import type { Fail } from './failure.js';
import { personTypingTimeout, signalChange } from './signals.js';
import { type Store, type UiState, upsertMessage } from './store.js';
import type { UserSession } from './user-session.js';

/** What a conversation works with: the UI store, the events, the Chat API and the user. */
export interface ConversationDeps {
  store: Store;
  emitter: Emitter;
  client: ChatClient;
  user: UserSession;
  fail: Fail;
  /** The tag the window's language was chosen by (`fr-CA`), sent with each message as its language hint. */
  localeTag: () => string;
}

/**
 * The conversation shown in the window: connected once (user, conversation resumed from storage or new,
 * history, live stream; then `webchat:ready`), its messages and live signals, restarts and sends.
 */
export class Conversation {
  private ready: Promise<string> | undefined;
  private id: string | undefined;
  private listening: AbortController | undefined;
  /** Ids of the messages already shown (each is emitted as a `message` event at most once). */
  private readonly seen = new Set<string>();

  /** Renews the time a person's "is typing" stays shown. */
  private readonly personTyping: () => void;

  constructor(private readonly deps: ConversationDeps) {
    this.personTyping = personTypingTimeout(deps.store);
  }

  /** Connects once: user, conversation (resumed from storage or new), history, live stream. Emits webchat:ready. */
  connect(): Promise<string> {
    const { store, emitter, fail } = this.deps;
    if (!this.ready) {
      store.set({ status: 'connecting' });
      this.ready = this.resume().then(
        (conversationId) => {
          store.set({ status: 'ready', notice: undefined });
          emitter.emit('webchat:ready', { conversationId });
          return conversationId;
        },
        (error: unknown) => {
          this.ready = undefined;
          const failure = fail(error);
          store.set({ status: 'error', notice: { key: 'errorConnect' } });
          throw failure;
        },
      );
    }
    return this.ready;
  }

  /** The conversation to send to: connects first; after a restart, the newest one. */
  async current(): Promise<string> {
    const connected = await this.connect();
    return this.id ?? connected;
  }

  /** Starts a new conversation (after connecting) and shows it; emits `conversation`. */
  async restart(): Promise<void> {
    const { client, user, emitter, fail } = this.deps;
    await this.connect();
    try {
      const conversation = await user.run(() => client.createConversation());
      user.write({ conversationId: conversation.value.id });
      await this.enter(conversation.value.id, conversation.value.handoff);
      emitter.emit('conversation', { conversationId: conversation.value.id });
    } catch (error) {
      throw fail(error);
    }
  }

  /**
   * Sends a message to the current conversation and shows it, with where the visitor writes from (for the
   * people of the inbox desk, should they take the conversation over).
   */
  async send(payload: MessagePayload, metadata?: Record<string, unknown>): Promise<void> {
    const conversationId = await this.current();
    try {
      const sent = { ...metadata, ...whereFrom(this.deps.localeTag()) };
      this.addMessage(await this.deps.client.createMessage(conversationId, payload, sent));
    } catch (error) {
      throw this.deps.fail(error);
    }
  }

  /** The stored conversation when the server still has it for this user, else a new one. */
  private async resume(): Promise<string> {
    const { client, user, emitter } = this.deps;
    const { value: conversation, created } = await user.run(async () => {
      const storedId = user.read().conversationId;
      if (storedId) {
        try {
          const stored = await client.getConversation(storedId);
          return { id: stored.id, handoff: stored.handoff, created: false };
        } catch (error) {
          const status = (error as { status?: number }).status;
          if (status !== 404 && status !== 403) throw error;
        }
      }
      const fresh = await client.createConversation();
      return { id: fresh.id, handoff: fresh.handoff, created: true };
    });
    user.write({ conversationId: conversation.id });
    await this.enter(conversation.id, conversation.handoff);
    if (conversation.created || created) emitter.emit('conversation', { conversationId: conversation.id });
    return conversation.id;
  }

  /**
   * Shows a conversation: opens its live stream first (from then on nothing is missed), then loads its
   * latest messages; a reconnection reloads them too, in case the stream could not resume.
   */
  private async enter(conversationId: string, handoff: VisitorHandoff | undefined): Promise<void> {
    const { client, store, fail } = this.deps;
    this.listening?.abort();
    this.id = conversationId;
    store.set({ messages: [], fromStart: false, streams: {}, typing: false, feedback: {}, debug: {} });
    // Who answers survives reloads: the stored conversation says so (emitted when a person ever did).
    this.setHandoff(handoff);
    const abort = new AbortController();
    this.listening = abort;
    try {
      await client.listen(
        conversationId,
        {
          onSignal: (signal) => this.onSignal(conversationId, signal),
          onOpen: (again) => {
            if (!again) return;
            this.loadHistory(conversationId, true).catch((error: unknown) => fail(error));
            // A change of owner missed while reconnecting.
            client
              .getConversation(conversationId)
              .then((c) => {
                if (conversationId === this.id) this.setHandoff(c.handoff);
              })
              .catch((error: unknown) => fail(error));
          },
          onError: (error, fatal) => {
            fail(error);
            if (fatal) store.set({ notice: { key: 'errorConnection' } });
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
    const page = await this.deps.client.listMessages(conversationId);
    if (conversationId !== this.id) return;
    if (emitNew) {
      for (const message of [...page.messages].reverse())
        if (!this.seen.has(message.id)) this.addMessage(message);
    }
    this.deps.store.set((s) => {
      let list = s.messages;
      const feedback = { ...s.feedback };
      for (const message of page.messages) {
        this.seen.add(message.id);
        list = upsertMessage(list, message).list;
        if (message.feedback && !feedback[message.id]) feedback[message.id] = message.feedback.value;
      }
      // The first load tells whether the conversation's start is shown (a reload after a reconnection keeps it).
      return emitNew
        ? { messages: list, feedback }
        : { messages: list, feedback, fromStart: !page.meta.nextToken };
    });
  }

  /** Shows a message of the current conversation; a new one is emitted as a `message` event. */
  private addMessage(message: ChatMessage): void {
    const { store, emitter } = this.deps;
    if (message.conversationId !== this.id) return;
    const { list, added } = upsertMessage(store.get().messages, message);
    const patch: Partial<UiState> = { messages: list };
    if (message.isBot) {
      patch.typing = false;
      patch.typist = undefined;
      patch.streams = {};
    }
    store.set(patch);
    if (added && !this.seen.has(message.id)) {
      this.seen.add(message.id);
      emitter.emit('message', message);
    }
  }

  /** Records who answers the conversation; a known owner (or a change of it) is emitted as `handoff`. */
  private setHandoff(handoff: VisitorHandoff | undefined): void {
    const { store, emitter } = this.deps;
    const before = store.get().handoff;
    store.set({ handoff });
    if (!handoff) return;
    if (before && before.state === handoff.state && before.agentName === handoff.agentName) return;
    emitter.emit('handoff', handoff.agentName === undefined ? { state: handoff.state } : { ...handoff });
  }

  private onSignal(conversationId: string, signal: ChatSignal): void {
    const { store, emitter, user } = this.deps;
    if (conversationId !== this.id) return;
    switch (signal.type) {
      case 'message_created':
      case 'message_updated':
        this.addMessage(signal.data);
        return;
      case 'event_created':
        if (signal.data.userId !== store.get().userId) emitter.emit('customEvent', signal.data.payload);
        return;
      case 'handoff_changed': {
        const { state, agentName } = signal.data;
        this.setHandoff(agentName === undefined ? { state } : { state, agentName });
        return;
      }
      case 'conversation_deleted':
        // The conversation is gone (deleted through the API): stop listening and start a new one.
        this.listening?.abort();
        user.write({ conversationId: undefined });
        this.restart().catch(() => undefined);
        return;
      default: {
        const change = signalChange(signal, store.get().userId);
        if (change) store.set(change);
        if (change && signal.type === 'typing_started' && signal.data.name !== undefined) this.personTyping();
      }
    }
  }
}

/**
 * The page the visitor writes from (its address without query or fragment, which may hold their tokens) and
 * the tag the window's language was chosen by (`locale`, with its region: the page's `locale`, else the bot's
 * `defaultLocale`, else the browser's languages), as the inbox desk shows them beside the conversation and the
 * bot takes as the tie-breaker of a short message's language (not the browser's own language, which the page or
 * the bot may have overridden).
 * @example whereFrom('de-AT') // { page: 'https://shop.example/help', language: 'de-AT' }
 */
export function whereFrom(locale: string): { page?: string; language: string } {
  const here = typeof location === 'undefined' ? undefined : `${location.origin}${location.pathname}`;
  return { ...(here?.startsWith('http') ? { page: here } : {}), language: locale };
}
