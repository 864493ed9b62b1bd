// The Console's workspace settings in a real browser (Debian Chromium, under the strict CSP): the owner renames
// the workspace and the switcher shows the new name; a name with markup stays text; refused values (an empty
// name, a malformed contact e-mail) get the Admin API's own message beside their field and nothing changes; a
// viewer sees the settings read-only with no Save; axe finds nothing; 390 px (dark) holds.
import { describe, expect, it } from 'vitest';
import { haveChromium } from '../packages/testkit/src/e2e/browser.js';
import { axe, overflows, useConsoleSuite } from '../packages/testkit/src/e2e/console.js';

const chromiumHere = haveChromium('console settings browser tests');

describe.skipIf(!chromiumHere)('console workspace settings in a browser', () => {
  const suite = useConsoleSuite();

  /** The workspace's name as the Admin API answers it now. */
  async function savedName(): Promise<string> {
    const answer = await suite.t.asOwner('GET', `/v1/admin/workspaces/${suite.t.workspaceId}`);
    return (answer.json() as { name: string }).name;
  }

  it('the owner renames the workspace (switcher follows, markup stays text); refused values say why beside the field', async () => {
    const { page, problems } = await suite.signedInPage(1280, 'light');
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Workspace settings' }).isVisible()).toBe(true);
    const name = page.getByLabel('Workspace name');
    await expect.poll(() => name.inputValue()).toBe(await savedName());
    expect(await axe(page), 'settings').toEqual([]);

    const tricky = '<img src=x onerror=window.pwned=1>';
    await name.fill(tricky);
    await page.getByLabel('About').fill('Support for the shop.\nSecond line.');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Settings saved.');
    expect(await savedName()).toBe(tricky);
    const chosen = page.locator('#workspace-switcher option:checked');
    await expect.poll(() => chosen.textContent()).toBe(tricky);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);

    // Refused: the API's messages beside the fields, marked invalid; the saved settings are unchanged.
    await name.fill('');
    await page.getByLabel('Contact email').fill('not an address');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.locator('#workspace-name-error').textContent())
      .toBe('must NOT have fewer than 1 characters');
    expect(await page.locator('#workspace-contact-email-error').textContent()).toBe(
      'must match format "email"',
    );
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('status').count()).toBe(0);
    expect(await savedName()).toBe(tricky);
    await expect.poll(() => chosen.textContent()).toBe(tricky);
    expect(await axe(page), 'settings with refused values').toEqual([]);

    // Fixing a field takes its message away; Save asks again, and the API still refuses the other one.
    await name.fill('Acme support');
    expect(await page.locator('#workspace-name-error').count()).toBe(0);
    const again = page.waitForResponse((r) => r.request().method() === 'PUT' && r.status() === 400);
    await page.getByRole('button', { name: 'Save' }).click();
    await again;
    await expect
      .poll(() => page.locator('#workspace-contact-email-error').textContent())
      .toBe('must match format "email"');
    expect(await page.locator('#workspace-name-error').count()).toBe(0);
    expect(await savedName()).toBe(tricky);
    await page.getByLabel('Contact email').fill('help@example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Settings saved.');
    await expect.poll(() => chosen.textContent()).toBe('Acme support');
    expect(await savedName()).toBe('Acme support');
    // The browser logs the two refused requests; nothing else went wrong (no CSP refusal, no page error).
    const refused = 'Failed to load resource: the server responded with a status of 400 (Bad Request)';
    expect(problems).toEqual([refused, refused]);
  });

  it('at 390 px, dark: the owner’s form holds; a viewer sees the settings read-only, with no Save', async () => {
    const owner = await suite.signedInPage(390, 'dark');
    await owner.page.goto(`${suite.origin}/console/settings`);
    await expect.poll(() => owner.page.getByRole('button', { name: 'Save' }).isVisible()).toBe(true);
    expect(await overflows(owner.page)).toBe(false);
    expect(await axe(owner.page), 'owner settings, 390 px dark').toEqual([]);

    const { email, password } = await suite.joinAs('viewer', 'Vera Viewer');

    const { page, problems } = await suite.newPage(390, 'dark');
    await page.goto(`${suite.origin}/console/settings`);
    await suite.signIn(page, password, email);
    await expect.poll(() => page.getByRole('heading', { name: 'Workspace settings' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Only owners and administrators change').isVisible()).toBe(true);
    expect(await page.getByRole('definition').first().textContent()).toBe(await savedName());
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await page.getByRole('textbox').count()).toBe(0);
    expect(await overflows(page)).toBe(false);
    expect(await axe(page), 'viewer settings, 390 px dark').toEqual([]);
    expect([...problems, ...owner.problems]).toEqual([]);
  });
});
