import type { MessagePayload } from '@parley/protocol';
import type { ChatClient } from './chat-client.js';
import type { Fail } from './failure.js';
import type { StringKey } from './i18n.js';
import type { Notice, Store } from './store.js';

/** Actions the UI calls. */
export interface UiActions {
  open(): void;
  close(): void;
  send(text: string): void;
  sendPayload(payload: MessagePayload): void;
  /** Asks for a person (human handoff): the text sent as the visitor's message with `metadata.handoff = "request"`. */
  requestPerson(text: string): void;
  /** Leaves an e-mail address when nobody came (human handoff): sent as a message with `metadata.contactEmail`. */
  leaveEmail(email: string): void;
  /** Uploads files one after the other, each then sent as an image or file message. */
  upload(files: File[]): void;
  /** Thumbs up/down; a comment (after thumbs down) is sent with the value. */
  feedback(messageId: string, value: 'positive' | 'negative', comment?: string): void;
  restart(): void;
}

/** What the UI's actions drive: the webchat's own methods, the Chat API client and the UI store. */
export interface ActionTarget {
  store: Store;
  client: ChatClient;
  fail: Fail;
  open(): void;
  close(): void;
  sendMessage(text: string): Promise<void>;
  sendPayload(payload: MessagePayload): Promise<void>;
  requestPerson(text: string): Promise<void>;
  leaveEmail(email: string): Promise<void>;
  restartConversation(): Promise<void>;
  /** The conversation to upload to (connecting first). */
  current(): Promise<string>;
  /** The feedback request last sent per message (one request at a time per message). */
  feedbackSent: Map<string, Promise<unknown>>;
}

/** Uploads one file and sends it as an image or file message; the window shows its progress. */
async function uploadOne(target: ActionTarget, file: File): Promise<void> {
  const { store, client, fail } = target;
  const id = await target.current();
  let url: string;
  store.set({ upload: { name: file.name, loaded: 0, total: file.size } });
  try {
    url = await client.uploadFile(id, file, (loaded, total) =>
      store.set({ upload: { name: file.name, loaded, total } }),
    );
  } catch (error) {
    const failure = fail(error);
    const key: StringKey =
      (error as { status?: number }).status === 413 ? 'errorUploadTooLarge' : 'errorUpload';
    throw Object.assign(failure, { notice: { key, values: { name: file.name } } });
  } finally {
    store.set({ upload: undefined });
  }
  await target.sendPayload(
    file.type.startsWith('image/')
      ? { type: 'image', imageUrl: url }
      : { type: 'file', fileUrl: url, title: file.name },
  );
}

/**
 * Sends feedback on a message, showing it at once; a failed request puts the previous value back. A
 * comment sent right after the thumbs down must land last, so requests for one message go one at a time.
 */
function sendFeedback(
  target: ActionTarget,
  messageId: string,
  value: 'positive' | 'negative',
  comment: string | undefined,
): Promise<unknown> {
  const { store, client, fail, feedbackSent } = target;
  const previous = store.get().feedback[messageId];
  store.set((s) => ({ feedback: { ...s.feedback, [messageId]: value } }));
  const sent = (feedbackSent.get(messageId) ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => client.feedback(messageId, value, comment));
  feedbackSent.set(messageId, sent);
  return sent.catch((error: unknown) => {
    store.set((s) => {
      const feedback = { ...s.feedback };
      if (previous) feedback[messageId] = previous;
      else delete feedback[messageId];
      return { feedback };
    });
    throw fail(error);
  });
}

/** The actions the UI calls (errors go to the `error` event and, as a sentence, to the window's notice). */
export function createUiActions(target: ActionTarget): UiActions {
  const { store } = target;
  const report = (promise: Promise<unknown>, key: StringKey) =>
    promise
      .then(() => store.set({ notice: undefined }))
      .catch((error: unknown) => store.set({ notice: (error as { notice?: Notice }).notice ?? { key } }));
  const busy = (promise: Promise<unknown>, key: StringKey) => {
    store.set({ busy: true });
    return report(
      promise.finally(() => store.set({ busy: false })),
      key,
    );
  };
  const uploadAll = async (files: File[]) => {
    for (const file of files) await uploadOne(target, file);
  };
  return {
    open: () => target.open(),
    close: () => target.close(),
    send: (text) => void busy(target.sendMessage(text), 'errorSend'),
    sendPayload: (payload) => void busy(target.sendPayload(payload), 'errorSend'),
    requestPerson: (text) => void busy(target.requestPerson(text), 'errorSend'),
    leaveEmail: (email) => void busy(target.leaveEmail(email), 'errorSend'),
    upload: (files) => void busy(uploadAll(files), 'errorSend'),
    feedback: (messageId, value, comment) =>
      void report(sendFeedback(target, messageId, value, comment), 'errorFeedback'),
    restart: () => void report(target.restartConversation(), 'errorRestart'),
  };
}
