import type { ChatUser, WebchatConfiguration } from '@parley/protocol';
import type { UserFields } from './chat-client.js';
import type { Emitter, Handler } from './emitter.js';
import type { Strings } from './i18n.js';

/** What the public config endpoint answers (`GET /webchat/v1/bots/{botId}/config`). */
export interface PublicWebchat {
  bot: { id: string; name: string };
  configuration: WebchatConfiguration;
}

/** The UI language and text overrides (beside `configuration`: they are not fields of its table). */
export interface LocaleOptions {
  /** Language of the UI texts: a shipped locale (`en`, `fr`; `fr-CA` → `fr`). Default `en`. */
  locale?: string;
  /** Overrides of single UI texts, by key (see the README); unknown keys are an error. */
  strings?: Partial<Strings>;
}

/** Options of `init` (the script tag's data attributes map onto the first three). */
export interface InitOptions extends LocaleOptions {
  /** The bot to talk to (`data-bot-id`). */
  botId: string;
  /** Tells apart several embeds of one bot on a page: namespaces the stored session (`data-client-id`). */
  clientId?: string;
  /** Page-level configuration, over the dashboard one. */
  configuration?: WebchatConfiguration;
  /** User fields to set once the user exists. */
  user?: UserFields;
  /** Origin of the Parley server; defaults to the origin the script was loaded from. */
  apiUrl?: string;
  /** CSP nonce for the styles and the lazy script; defaults to the script tag's nonce. */
  nonce?: string;
  /** `fullscreen` fills the page and has no launcher (the hosted page); `embedded` by default. */
  layout?: 'embedded' | 'fullscreen';
  /** Element to render into; defaults to a new element at the end of `<body>`. */
  container?: HTMLElement;
}

/** The global object (spec "Webchat methods"). */
export interface WebchatApi {
  init(options: InitOptions): void;
  open(): void;
  close(): void;
  toggle(): void;
  updateUser(user: UserFields): Promise<void>;
  getUser(): Promise<ChatUser>;
  config(options: { configuration?: WebchatConfiguration; user?: UserFields } & LocaleOptions): void;
  restartConversation(): Promise<void>;
  sendMessage(message: string): Promise<void>;
  sendEvent(event: Record<string, unknown>): Promise<void>;
  setUnreadMessageCount(count: number): void;
  on(type: string, handler: Handler): () => void;
}

/** Methods the UI bundle implements once initialized (everything but init and on). */
export type WebchatImpl = Omit<WebchatApi, 'init' | 'on'>;

/** What the loader hands the UI bundle. */
export interface StartContext {
  options: InitOptions;
  emitter: Emitter;
  /** URL of the folder the scripts come from (ends with `/`). */
  scriptBase: string;
  nonce: string | undefined;
}

/** What the UI bundle installs on `globalThis.__parleyWebchat`. */
export interface WebchatBundle {
  start(context: StartContext): Promise<WebchatImpl>;
}
