/**
 * inject.js: the tiny loader. Installs the global object synchronously (calls made before the chat
 * is initialized are queued and replayed in order), then lazy-loads webchat.js from the same folder.
 */
import { createEmitter } from './emitter.js';
import type { InitOptions, StartContext, WebchatApi, WebchatBundle, WebchatImpl } from './types.js';

type Pending = {
  method: keyof WebchatImpl;
  args: unknown[];
  resolve(v: unknown): void;
  reject(e: unknown): void;
};

const ASYNC = ['updateUser', 'getUser', 'restartConversation', 'sendMessage', 'sendEvent'] as const;
const SYNC = ['open', 'close', 'toggle', 'config', 'setUnreadMessageCount'] as const;

/** Loads webchat.js once per URL: several script tags (several bots) on a page share it. */
function loadBundle(url: string, nonce: string | undefined): Promise<WebchatBundle> {
  const shared = globalThis as { __parleyWebchatLoads?: Record<string, Promise<WebchatBundle>> };
  shared.__parleyWebchatLoads ??= {};
  const bundles = shared.__parleyWebchatLoads;
  let promise = bundles[url];
  if (!promise) {
    promise = new Promise<WebchatBundle>((resolve, reject) => {
      const g = globalThis as { __parleyWebchat?: WebchatBundle };
      if (g.__parleyWebchat) return resolve(g.__parleyWebchat);
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      if (nonce) script.nonce = nonce;
      script.onload = () =>
        g.__parleyWebchat
          ? resolve(g.__parleyWebchat)
          : reject(new Error(`${url} did not install the webchat`));
      script.onerror = () => {
        delete bundles[url];
        script.remove();
        reject(new Error(`Could not load the webchat UI from ${url}`));
      };
      document.head.appendChild(script);
    });
    bundles[url] = promise;
  }
  return promise;
}

/**
 * Creates one webchat instance's global object. `scriptBase` is the folder of inject.js.
 * @example const chat = createWebchat('https://chat.example.com/webchat/v1/'); chat.init({ botId });
 */
export function createWebchat(scriptBase: string, defaultNonce?: string): WebchatApi {
  const emitter = createEmitter();
  const queue: Pending[] = [];
  let impl: WebchatImpl | undefined;
  let started = false;

  function enqueue(method: keyof WebchatImpl, args: unknown[]): Promise<unknown> {
    return new Promise((resolve, reject) => queue.push({ method, args, resolve, reject }));
  }

  const api = {
    init(options: InitOptions) {
      if (started) {
        console.warn('[parley] init was already called; this call is ignored');
        return;
      }
      if (!options || typeof options.botId !== 'string' || !options.botId) {
        const error = new Error('init({botId}): botId is required');
        emitter.emit('error', error);
        throw error;
      }
      started = true;
      const nonce = options.nonce ?? defaultNonce;
      const context: StartContext = { options, emitter, scriptBase, nonce };
      loadBundle(`${scriptBase}webchat.js`, nonce)
        .then((bundle) => bundle.start(context))
        .then((ready) => {
          impl = ready;
          for (const call of queue.splice(0)) {
            try {
              const fn = ready[call.method] as (...a: unknown[]) => unknown;
              Promise.resolve(fn(...call.args)).then(call.resolve, call.reject);
            } catch (error) {
              call.reject(error);
            }
          }
          emitter.emit('webchat:initialized', {});
        })
        .catch((error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          emitter.emit('error', failure);
          // Queued calls are answered, never lost: promises reject, sync calls were reported by the error.
          for (const call of queue.splice(0)) call.reject(failure);
          started = false;
        });
    },
    on: (type: string, handler: (data: unknown) => void) => emitter.on(type, handler),
  } as WebchatApi;

  const target = api as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ASYNC) {
    target[method] = (...args: unknown[]) =>
      impl ? (impl[method] as (...a: unknown[]) => Promise<unknown>)(...args) : enqueue(method, args);
  }
  for (const method of SYNC) {
    target[method] = (...args: unknown[]) => {
      if (impl) (impl[method] as (...a: unknown[]) => void)(...args);
      else void enqueue(method, args).catch(() => undefined);
    };
  }
  return api;
}

const script = document.currentScript as HTMLScriptElement | null;
if (script) {
  const src = script.src || location.href;
  const base = new URL('.', src).href;
  const data = script.dataset;
  const name = data.globalName || 'parley';
  const w = window as unknown as Record<string, unknown>;
  if (w[name]) {
    console.warn(`[parley] window.${name} already exists; this script tag is ignored`);
  } else {
    const nonce = script.nonce || script.getAttribute('nonce') || undefined;
    const api = createWebchat(base, nonce);
    w[name] = api;
    if (data.botId) {
      const options: InitOptions = { botId: data.botId };
      if (data.clientId) options.clientId = data.clientId;
      if (data.layout === 'fullscreen') options.layout = 'fullscreen';
      if (data.locale) options.locale = data.locale;
      api.init(options);
    }
  }
}
