import { describe, expect, it } from 'vitest';
import { haveChromium, useBrowserApp } from '../packages/testkit/src/e2e/browser.js';
import { inWebchat, withWebchatConfiguration } from '../packages/testkit/src/e2e/webchat.js';

const chromiumHere = haveChromium('webchat handoff browser tests');
const LIVE = { timeout: 15_000, interval: 50 };

describe.skipIf(!chromiumHere)('webchat human handoff: nobody came', () => {
  const suite = useBrowserApp({ workers: true });

  it('asks for a person, and when the wait is over shows the e-mail form, whose address is kept with the conversation', async () => {
    const { t, origin } = suite;
    // A one-second wait for this bot: the wait's end is a job any process runs at that time.
    const set = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}`, { handoff: { waitSeconds: 1 } });
    expect(set.statusCode, set.body).toBe(200);
    await withWebchatConfiguration(t, { handoffButton: true }, async () => {
      const context = await suite.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // Every `handoff` event, recorded as the loader installs window.parley (none fired while loading is missed).
      await page.addInitScript(`(() => {
        window.handoffs = [];
        let api;
        Object.defineProperty(window, 'parley', {
          configurable: true,
          get: () => api,
          set: (value) => { api = value; value.on('handoff', (e) => window.handoffs.push(e)); },
        });
      })()`);
      const handoffs = () => page.evaluate('window.handoffs') as Promise<unknown[]>;
      await page.goto(`${origin}/webchat/${t.botId}`);
      await inWebchat(page, 'button.pw-handoff').click();
      await expect.poll(handoffs, LIVE).toEqual([{ state: 'pending' }]);

      // Nobody takes it: the bot is back and says so, with the form under its message.
      await expect.poll(handoffs, LIVE).toEqual([{ state: 'pending' }, { state: 'bot' }]);
      const form = inWebchat(page, 'form.pw-email');
      await form.waitFor({ timeout: LIVE.timeout });
      expect(await inWebchat(page, '.pw-msg[data-from="bot"]').last().textContent()).toContain(
        'nobody is free to answer right now',
      );
      const field = page.getByLabel('Your e-mail address');
      // The browser refuses what is no address (the field is type=email): nothing is sent.
      await field.fill('not an address');
      await page.getByRole('button', { name: 'Send my address' }).click();
      expect(
        await field.evaluate((el) => (el as unknown as { validity: { valid: boolean } }).validity.valid),
      ).toBe(false);

      await field.fill('vera@example.com');
      await page.getByRole('button', { name: 'Send my address' }).click();
      await expect
        .poll(() => inWebchat(page, '.pw-msg[data-from="bot"]').last().textContent(), LIVE)
        .toContain('a person will write to you at vera@example.com');
      // The form went with the bot's last message.
      expect(await form.count()).toBe(0);
      const conversationId = JSON.parse(
        String(await page.evaluate(`localStorage.getItem('parley:webchat:${t.botId}')`)),
      ).conversationId as string;
      const handoff = await t.asOwner(
        'GET',
        `/v1/admin/bots/${t.botId}/conversations/${conversationId}/handoff`,
      );
      expect(handoff.json()).toMatchObject({ handoff: { state: 'bot', visitorEmail: 'vera@example.com' } });
      expect(errors).toEqual([]);
    });
  }, 120_000);
});
