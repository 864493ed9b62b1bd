/**
 * webchat.js: the lazily loaded UI bundle. Installs `globalThis.__parleyWebchat.start`, which the
 * loader calls with the instance's options and emitter.
 */
import { h, render } from 'preact';
import { WebchatError } from './config.js';
import { Controller } from './controller.js';
import type { PublicWebchat, StartContext, WebchatBundle, WebchatImpl } from './types.js';
import { App } from './ui/app.js';
import { STYLES } from './ui/styles.js';

async function loadDashboard(apiUrl: string, botId: string): Promise<PublicWebchat> {
  const url = `${apiUrl}/webchat/v1/bots/${encodeURIComponent(botId)}/config`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw new WebchatError(
      `Could not load the webchat configuration of bot "${botId}": ${(error as Error).message}`,
    );
  }
  if (res.status === 404) throw new WebchatError(`Unknown bot "${botId}": check data-bot-id / init({botId})`);
  if (!res.ok)
    throw new WebchatError(`Could not load the webchat configuration of bot "${botId}" (HTTP ${res.status})`);
  return (await res.json()) as PublicWebchat;
}

function styleElement(css: string, nonce: string | undefined): HTMLStyleElement {
  const style = document.createElement('style');
  if (nonce) style.nonce = nonce;
  style.textContent = css;
  return style;
}

async function start(context: StartContext): Promise<WebchatImpl> {
  const { options, nonce } = context;
  const apiUrl = (options.apiUrl ?? new URL(context.scriptBase).origin).replace(/\/$/, '');
  const dashboard = await loadDashboard(apiUrl, options.botId);
  const controller = new Controller(context, dashboard, apiUrl);
  // The first render is in the visitor's language: its catalog (if not English) is fetched first.
  await controller.loadLanguage();

  const host = options.container ?? document.createElement('div');
  host.setAttribute('data-parley-webchat', options.botId);
  if (!options.container) document.body.appendChild(host);
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  shadow.appendChild(styleElement(STYLES, nonce));
  const extraStyle = styleElement('', nonce);
  extraStyle.setAttribute('data-parley', 'additional-stylesheet');
  shadow.appendChild(extraStyle);
  let link: HTMLLinkElement | undefined;
  const mount = document.createElement('div');
  shadow.appendChild(mount);

  const applyStyles = () => {
    const { additionalStylesheet, additionalStylesheetUrl } = controller.store.get().config;
    if (extraStyle.textContent !== (additionalStylesheet ?? ''))
      extraStyle.textContent = additionalStylesheet ?? '';
    if ((link?.href ?? '') !== (additionalStylesheetUrl ?? '')) {
      link?.remove();
      link = undefined;
      if (additionalStylesheetUrl) {
        link = document.createElement('link');
        link.rel = 'stylesheet';
        link.href = additionalStylesheetUrl;
        if (nonce) link.nonce = nonce;
        shadow.insertBefore(link, mount);
      }
    }
  };
  applyStyles();
  controller.store.subscribe(applyStyles);
  render(h(App, { store: controller.store, actions: controller.actions() }), mount);

  const impl: WebchatImpl = {
    open: () => controller.open(),
    close: () => controller.close(),
    toggle: () => controller.toggle(),
    config: (o) => controller.config(o),
    setUnreadMessageCount: (n) => controller.setUnreadMessageCount(n),
    updateUser: (u) => controller.updateUser(u),
    getUser: () => controller.getUser(),
    restartConversation: () => controller.restartConversation(),
    sendMessage: (m) => controller.sendMessage(m),
    sendEvent: (e) => controller.sendEvent(e),
  };
  if (options.layout === 'fullscreen') controller.open();
  return impl;
}

const bundle: WebchatBundle = { start };
(globalThis as { __parleyWebchat?: WebchatBundle }).__parleyWebchat = bundle;
