// The Console's Team page for pending invitations (issue #37, item 6), in a real browser (Debian Chromium)
// against an in-process Parley. The role picker says what the chosen role may do; a pending invitation shows
// when its link expires, "Copy link" (a new link each time, as only a hash of a code is kept: the old link
// stops working) and "Revoke"; the invitee who joins by the new link is not shown the first owner's password
// hint. axe finds nothing in light and dark at 1280 and 390 px.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium } from '../packages/testkit/src/e2e/browser.js';
import { axe, OTHER_VIEWS, overflows, useConsoleSuite } from '../packages/testkit/src/e2e/console.js';

const chromiumHere = haveChromium('console team browser tests');

describe.skipIf(!chromiumHere)('console team invitations in a browser', () => {
  // A browser of its own: the tests read back what they copied (the clipboard is the browser's).
  const suite = useConsoleSuite({}, { own: true });

  /** Invites `email` as `role` from the Team page; answers the link shown. */
  async function invite(page: Page, email: string, role: string): Promise<string> {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption({ label: role });
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = page.getByLabel('Invitation link');
    await expect.poll(() => link.isVisible()).toBe(true);
    return link.inputValue();
  }

  /** Opens `link` in a fresh browser and tries to join with a name and password. */
  async function join(link: string) {
    const invitee = await suite.newPage(390, 'dark');
    await invitee.page.goto(link);
    await invitee.page.getByRole('heading', { name: 'Join Parley' }).waitFor();
    await invitee.page.getByLabel('Name').fill('Nina New');
    await invitee.page.getByLabel('Password').fill('the new member password');
    await invitee.page.getByRole('button', { name: 'Join' }).click();
    return invitee;
  }

  it('says what a role may do, renews a pending link (the old one stops working) and revokes', async () => {
    const { page, problems } = await suite.signedInPage(1280, 'light');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.origin });
    await page.goto(`${suite.origin}/console/team`);
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    // The top bar marks the section shown, and only it.
    const sections = page.getByRole('navigation', { name: 'Sections' });
    expect(await sections.locator('[aria-current="page"]').allTextContents()).toEqual(['Team']);

    // What the chosen role may do, under the picker and read with it.
    const picker = page.getByLabel('Role', { exact: true });
    await picker.selectOption({ label: 'Manager' });
    const what = page.locator(`#${await picker.getAttribute('aria-describedby')}`);
    expect(await what.textContent()).toBe('As a developer, and reads the audit log.');
    await picker.selectOption({ label: 'Viewer' });
    expect(await what.textContent()).toBe('Reads every bot, file and conversation; changes nothing.');

    const email = `nina-${Date.now()}@example.com`;
    const first = await invite(page, email, 'Developer');

    // After a reload the link is gone, but the pending invitation keeps its expiry and "Copy link".
    await page.reload();
    const row = page.getByRole('listitem').filter({ hasText: email });
    await expect.poll(() => row.getByText(/^The link works until /).isVisible()).toBe(true);
    expect(await page.getByLabel('Invitation link').count()).toBe(0);
    await row.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => row.getByText(/^New link copied\./).isVisible()).toBe(true);
    const renewed = (await page.evaluate('navigator.clipboard.readText()')) as string;
    expect(renewed).toMatch(new RegExp(`^${suite.origin}/console/invite/[^/]+$`));
    expect(renewed).not.toBe(first);
    expect(await row.getByLabel('Invitation link').inputValue()).toBe(renewed);
    expect(await axe(page), 'team with a renewed link, 1280 light').toEqual([]);

    // The first link no longer works; the new one does, and the sign-in after it shows no owner's hint.
    const stale = await join(first);
    await expect.poll(() => stale.page.getByRole('alert').textContent()).toMatch(/not found/i);
    const invitee = await join(renewed);
    await expect.poll(() => invitee.page.getByText(/Now sign in\.$/).isVisible()).toBe(true);
    expect(await invitee.page.getByText(/first owner's password/).count()).toBe(0);
    await page.reload();
    await expect.poll(() => row.getByText('Active').isVisible()).toBe(true);
    expect(await row.getByRole('button', { name: 'Copy link' }).count()).toBe(0);

    // Revoke: confirmed, the row goes, its link stops working.
    const other = `otto-${Date.now()}@example.com`;
    const revokedLink = await invite(page, other, 'Viewer');
    const otherRow = page.getByRole('listitem').filter({ hasText: other });
    await otherRow.getByRole('button', { name: 'Revoke' }).click();
    await otherRow.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect.poll(() => otherRow.count()).toBe(0);
    const refused = await join(revokedLink);
    await expect.poll(() => refused.page.getByRole('alert').textContent()).toMatch(/not found/i);
    expect(problems).toEqual([]);
  });

  it('is axe clean with a pending invitation in dark and at 390 px', async () => {
    const added = await suite.t.asOwner('POST', '/v1/admin/workspace-members', {
      email: `pending-${Date.now()}@example.com`,
      role: 'viewer',
    });
    expect(added.statusCode, added.body).toBe(201);
    for (const [width, scheme] of OTHER_VIEWS) {
      const { page, problems } = await suite.signedInPage(width, scheme);
      await page.goto(`${suite.origin}/console/team`);
      await page
        .getByText(/^The link works until /)
        .first()
        .waitFor();
      expect(await overflows(page), `${width} ${scheme}`).toBe(false);
      expect(await axe(page), `team, ${width} ${scheme}`).toEqual([]);
      expect(problems).toEqual([]);
    }
  });
});
