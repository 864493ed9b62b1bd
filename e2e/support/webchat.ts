// What the webchat browser tests do through the APIs around the page: shape the bot's webchat, speak as the bot.
import type { Frame, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestApp } from '../../packages/server/src/test-support/harness.js';

/** Sets the bot's webchat configuration (the dashboard's values) as the workspace owner. */
export async function setWebchatConfiguration(
  app: TestApp,
  configuration: Record<string, unknown>,
): Promise<void> {
  const res = await app.asOwner('PUT', `/v1/admin/bots/${app.botId}/webchat`, { configuration });
  expect(res.statusCode, res.body).toBe(200);
}

/** Posts a message as the bot itself (its access key) through the listening app at `origin`. */
export async function postAsBot(
  origin: string,
  app: TestApp,
  conversationId: string,
  payload: Record<string, unknown>,
): Promise<{ id: string }> {
  const res = await fetch(`${origin}/v1/chat/${app.botId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.botKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ conversationId, payload }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { message: { id: string } }).message;
}

/**
 * Runs `steps` with the bot's webchat configured as `configuration` (see setWebchatConfiguration), and puts
 * the empty configuration back after them, whether they pass or fail.
 */
export async function withWebchatConfiguration(
  app: TestApp,
  configuration: Record<string, unknown>,
  steps: () => Promise<void>,
): Promise<void> {
  await setWebchatConfiguration(app, configuration);
  try {
    await steps();
  } finally {
    await setWebchatConfiguration(app, {});
  }
}

/** The elements `selector` matches inside the webchat of `page`. */
export function inWebchat(page: Page, selector: string): Locator {
  return page.locator(`[data-parley-webchat] ${selector}`);
}

/** Types `text` into the webchat's composer and sends it with Enter, as a visitor does. */
export async function sendFromComposer(page: Page, text: string): Promise<void> {
  await inWebchat(page, 'textarea').fill(text);
  await page.keyboard.press('Enter');
}

/**
 * The `--pw-color` of the webchat drawn in `frame` (a page or frame whose webchat lives in a shadow root, e.g. the
 * Console designer's preview): null until the webchat is drawn.
 */
export function webchatColour(frame: Frame): Promise<string | null> {
  return frame.evaluate(`(() => {
    for (const element of document.querySelectorAll('*')) {
      const root = element.shadowRoot?.querySelector('.pw-root');
      if (root) return getComputedStyle(root).getPropertyValue('--pw-color').trim();
    }
    return null;
  })()`);
}
