// The Console in a real browser (Debian Chromium), served by an in-process Parley under its strict CSP: the
// bootstrap owner signs in with the bootstrap password, creates, renames, disables and deletes bots, reloads on a
// deep link and stays signed in, switches workspace (remembered), changes name and password, signs out; a wrong
// password is shown in words; axe finds nothing on Sign in, Bots, Team and the invite page; at 1280 px (light)
// and 390 px (dark). The owner invites a viewer on Team and copies the link; the viewer joins in another
// browser, signs in and is offered no bot creation, change, deletion or key; the owner changes the role, removes
// them. A personal access token is created on Account (its value shown once and copied), answers 200 on the Admin
// API, is revoked after a confirmation and then answers 401; a bot key is created, listed and revoked.
import { describe, expect, it } from 'vitest';
import { haveChromium } from '../packages/testkit/src/e2e/browser.js';
import { axe, overflows, useConsoleSuite } from '../packages/testkit/src/e2e/console.js';

const chromiumHere = haveChromium('console browser tests');

describe.skipIf(!chromiumHere)('console in a browser', () => {
  // A browser of its own: the tests read back what they copied (the clipboard is the browser's).
  const suite = useConsoleSuite({}, { own: true });
  const { newPage, signIn } = suite;

  it('at 1280 px: sign in (wrong password first), bots end to end, deep link reload, account, sign out', async () => {
    const { page, problems } = await newPage(1280, 'light');
    const response = await page.goto(`${suite.origin}/`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(page.url()).toBe(`${suite.origin}/console/`);
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to Parley' }).isVisible()).toBe(true);
    expect(await axe(page), 'sign in').toEqual([]);

    await signIn(page, 'not the right password');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong e-mail or password');

    await signIn(page, suite.t.owner.password);
    await expect.poll(() => page.getByRole('heading', { name: 'Bots' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Workspace').count()).toBe(1);

    // A name with markup stays text.
    const tricky = 'Support <img src=x onerror="window.pwned=1">';
    await page.getByLabel('Bot name').fill(tricky);
    await page.getByRole('button', { name: 'Create bot' }).click();
    // Creating opens the new bot, and says so there.
    await expect.poll(() => page.url()).toMatch(/\/console\/bots\/[^/]+$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(tricky);
    // The notice, beside whatever part of the overview is still loading (its own status).
    const notice = page.getByRole('status').filter({ hasText: 'created.' });
    expect(await notice.textContent()).toBe(
      `Bot "${tricky}" created. This is its overview: add knowledge next.`,
    );
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.locator('main img').count()).toBe(0);
    expect(await axe(page), 'new bot').toEqual([]);
    await page.getByRole('link', { name: '← All bots' }).click();
    const link = page.getByRole('link', { name: tricky, exact: true });
    await expect.poll(() => link.isVisible()).toBe(true);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await axe(page), 'bots').toEqual([]);

    await link.click();
    await expect.poll(() => page.getByRole('heading', { name: tricky }).isVisible()).toBe(true);
    // The notice was said once: opening the bot again does not repeat it.
    expect(await page.getByText(/created\. This is its overview/).count()).toBe(0);
    await page.getByLabel('Bot name').fill('Helpdesk');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Helpdesk');
    await page.getByRole('button', { name: 'Disable bot' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Enable bot' }).isVisible()).toBe(true);
    // Source links: public by default; choosing every source says what it means, and saves.
    const sourceLinks = page.getByLabel('Link sources');
    expect(await sourceLinks.inputValue()).toBe('public');
    await sourceLinks.selectOption('all');
    expect(await page.locator('#bot-source-links-means').textContent()).toMatch(
      /^Anyone who sees an answer can download the whole file of each source, private files included/,
    );
    await page.getByRole('button', { name: 'Apply source links' }).click();
    await expect.poll(() => page.getByText(/^Source links saved/).isVisible()).toBe(true);
    const saved = await suite.t.asOwner('GET', `/v1/admin/bots/${page.url().split('/').pop()}`);
    expect((saved.json() as { bot: { sourceLinks: string } }).bot.sourceLinks).toBe('all');

    // A deep link survives a reload: same page, still signed in (the session cookie), the bot still disabled.
    const botUrl = page.url();
    expect(botUrl).toMatch(/\/console\/bots\/[^/]+$/);
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Helpdesk');
    expect(page.url()).toBe(botUrl);
    await expect.poll(() => page.getByRole('button', { name: 'Enable bot' }).isVisible()).toBe(true);

    await page.getByRole('link', { name: '← All bots' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Helpdesk', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: tricky }).count()).toBe(0);

    // Delete asks first; Cancel keeps the bot, the confirmation deletes it.
    await page.getByLabel('Bot name').fill('Temporary');
    await page.getByRole('button', { name: 'Create bot' }).click();
    await page.getByRole('heading', { level: 1, name: 'Temporary' }).waitFor();
    await page.getByRole('button', { name: 'Delete bot' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete bot' }).click();
    await page.getByRole('button', { name: 'Yes, delete this bot' }).click();
    await expect.poll(() => page.url()).toBe(`${suite.origin}/console/bots`);
    await expect.poll(() => page.getByRole('link', { name: 'Helpdesk', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Temporary', exact: true }).count()).toBe(0);

    // Account: name, sessions, password.
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Olga Owner');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Name saved.');
    await expect.poll(() => page.getByText('This browser').isVisible()).toBe(true);
    const newPassword = 'a new password for the console';
    await page.getByLabel('Current password').fill(suite.t.owner.password);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Repeat the new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByText(/^Password changed\./).isVisible()).toBe(true);
    suite.t.owner.password = newPassword;

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to Parley' }).isVisible()).toBe(true);
    // The cookie is gone: a reload stays signed out.
    await page.goto(botUrl);
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await overflows(page)).toBe(false);
    expect(problems).toEqual([]);
  });

  it('at 390 px, dark: sign in, the layout holds, the workspace switch is remembered, sign out everywhere', async () => {
    const second = await suite.t.asOwner('POST', '/v1/admin/workspaces', { name: 'Second shop' });
    expect(second.statusCode, second.body).toBe(201);
    const { page, problems } = await newPage(390, 'dark');
    await page.goto(`${suite.origin}/console/bots`);
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    expect(await axe(page), 'sign in, 390 px dark').toEqual([]);
    await signIn(page, suite.t.owner.password);
    await expect.poll(() => page.getByRole('link', { name: 'Helpdesk', exact: true }).isVisible()).toBe(true);
    expect(await overflows(page)).toBe(false);
    expect(await axe(page), 'bots, 390 px dark').toEqual([]);

    // At 390 px the top bar's sections, switcher and sign out are behind the Menu button.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByLabel('Workspace').selectOption({ label: 'Second shop' });
    await expect.poll(() => page.getByText('in Second shop').isVisible()).toBe(true);
    await expect.poll(() => page.getByText(/No bots here yet/).isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByText('in Second shop').isVisible()).toBe(true);
    expect(await overflows(page)).toBe(false);

    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in to Parley' }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('the owner invites a viewer by link; the viewer joins, signs in and is not offered what a viewer may not do', async () => {
    const { page, problems } = await newPage(1280, 'light');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.origin });
    await page.goto(`${suite.origin}/console/team`);
    await signIn(page, suite.t.owner.password);
    await expect.poll(() => page.getByRole('heading', { name: 'Team' }).isVisible()).toBe(true);
    const email = `viewer-${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Viewer' });
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const linkInput = page.getByLabel('Invitation link');
    await expect.poll(() => linkInput.isVisible()).toBe(true);
    const link = await linkInput.inputValue();
    expect(link).toMatch(new RegExp(`^${suite.origin}/console/invite/[^/]+$`));
    // The invite card's button (the pending invitation's row has its own "Copy link", which issues a new link).
    const inviteCard = page.locator('.card', { has: page.getByRole('heading', { name: 'Invite member' }) });
    await inviteCard.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => page.getByText('Link copied.').isVisible()).toBe(true);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(link);
    const row = page.getByRole('listitem').filter({ hasText: email });
    await expect.poll(() => row.getByText('Invited').isVisible()).toBe(true);
    expect(await page.getByLabel(`Role of ${email}`).inputValue()).toBe('viewer');
    expect(await axe(page), 'team').toEqual([]);

    // A second browser, signed out: the link, a name and a password, then Sign in.
    const invitee = await newPage(390, 'dark');
    await invitee.page.goto(link);
    await expect
      .poll(() => invitee.page.getByRole('heading', { name: 'Join Parley' }).isVisible())
      .toBe(true);
    expect(await axe(invitee.page), 'invite, 390 px dark').toEqual([]);
    await invitee.page.getByLabel('Name').fill('Vera <b>Viewer</b>');
    await invitee.page.getByLabel('Password').fill('the viewer password 123');
    await invitee.page.getByRole('button', { name: 'Join' }).click();
    await expect.poll(() => invitee.page.getByText(/Now sign in\.$/).isVisible()).toBe(true);
    expect(await invitee.page.getByLabel('Email').inputValue()).toBe(email);
    await invitee.page.getByLabel('Password').fill('the viewer password 123');
    const ownRole = invitee.page.waitForResponse((r) => r.url().endsWith('/workspace-members/me'));
    await invitee.page.getByRole('button', { name: 'Sign in' }).click();
    await ownRole;
    await expect
      .poll(() => invitee.page.getByRole('link', { name: 'Helpdesk', exact: true }).isVisible())
      .toBe(true);
    expect(await invitee.page.getByRole('button', { name: 'Create bot' }).count()).toBe(0);
    // The role loaded with the bots page is cached: the bot page knows it as it opens.
    await invitee.page.getByRole('link', { name: 'Helpdesk', exact: true }).click();
    await expect.poll(() => invitee.page.getByRole('heading', { name: 'Helpdesk' }).isVisible()).toBe(true);
    expect(await invitee.page.getByRole('button', { name: 'Delete bot' }).count()).toBe(0);
    await expect
      .poll(() => invitee.page.getByRole('heading', { name: 'Access keys' }).isVisible())
      .toBe(true);
    expect(await invitee.page.getByRole('button', { name: /^(Create key|Revoke)$/ }).count()).toBe(0);
    expect(await invitee.page.getByRole('button', { name: /^(Save|Disable bot|Enable bot)$/ }).count()).toBe(
      0,
    );
    await invitee.page.getByRole('button', { name: 'Menu' }).click();
    await invitee.page.getByRole('link', { name: 'Team' }).click();
    await expect.poll(() => invitee.page.getByText(/^Only owners and administrators/).isVisible()).toBe(true);
    expect(await invitee.page.getByRole('button', { name: 'Invite', exact: true }).count()).toBe(0);
    expect(await invitee.page.getByRole('button', { name: 'Remove' }).count()).toBe(0);
    expect(await invitee.page.locator('main b').count()).toBe(0);

    expect(await overflows(invitee.page)).toBe(false);

    // The owner sees the viewer active now, changes the role, then removes them (confirmed).
    await page.reload();
    await expect.poll(() => row.getByText('Active').isVisible()).toBe(true);
    await page.getByLabel(`Role of ${email}`).selectOption({ label: 'Developer' });
    await row.getByRole('button', { name: 'Save role' }).click();
    await expect
      .poll(() => row.getByRole('status').textContent())
      .toBe('Vera <b>Viewer</b> is now developer.');
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Yes, remove' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(problems).toEqual([]);
    expect(invitee.problems).toEqual([]);
  });

  it('personal access tokens and bot keys: created (value shown once, copied), used, revoked after a confirmation', async () => {
    const { page, problems } = await newPage(1280, 'light');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.origin });
    await page.goto(`${suite.origin}/console/account`);
    await signIn(page, suite.t.owner.password);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Personal access tokens' }).isVisible())
      .toBe(true);
    const note = 'CI <b>deploy</b>';
    await page.getByLabel('Note', { exact: true }).fill(note);
    await page.getByLabel('Expires').selectOption({ label: 'In 30 days' });
    await page.getByRole('button', { name: 'Create token' }).click();
    const valueInput = page.getByLabel('New token');
    await expect.poll(() => valueInput.isVisible()).toBe(true);
    const token = await valueInput.inputValue();
    expect(token.length).toBeGreaterThan(20);
    expect(await page.getByText(/shown only now/).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Copy token' }).click();
    await expect.poll(() => page.getByText('Copied.').isVisible()).toBe(true);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);
    const row = page.getByRole('listitem').filter({ hasText: note });
    await expect.poll(() => row.getByText(/expires/).isVisible()).toBe(true);
    expect(await page.locator('main b').count()).toBe(0);
    expect(await axe(page), 'account with a new token').toEqual([]);

    const call = () =>
      fetch(`${suite.origin}/v1/admin/workspaces`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.status,
      );
    expect(await call()).toBe(200);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Cancel' }).click();
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(await call()).toBe(401);

    // A bot's access keys.
    await page.getByRole('link', { name: 'Bots' }).click();
    await page.getByRole('link', { name: 'Helpdesk', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Access keys' }).isVisible()).toBe(true);
    await page.getByLabel('Note', { exact: true }).fill('Shop backend');
    await page.getByRole('button', { name: 'Create key' }).click();
    const keyInput = page.getByLabel('New key');
    await expect.poll(() => keyInput.isVisible()).toBe(true);
    expect((await keyInput.inputValue()).length).toBeGreaterThan(20);
    expect(await page.getByRole('button', { name: 'Copy key' }).isVisible()).toBe(true);
    const keyRow = page.getByRole('listitem').filter({ hasText: 'Shop backend' });
    await expect.poll(() => keyRow.getByText(/does not expire/).isVisible()).toBe(true);
    expect(await axe(page), 'bot with a new key').toEqual([]);
    await keyRow.getByRole('button', { name: 'Revoke' }).click();
    await keyRow.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect.poll(() => keyRow.count()).toBe(0);
    // The last key revoked: "No keys yet.", and the revoked key's value and notice are gone with it.
    await expect.poll(() => page.getByText('No keys yet.').isVisible()).toBe(true);
    expect(await keyInput.count()).toBe(0);
    expect(await page.getByText('Key "Shop backend" created.').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('titles every page "Page · Bot · Parley", offers a skip link first, and has an icon', async () => {
    const { page, problems } = await suite.signedInPage(1280, 'light');
    await expect.poll(() => page.title()).toBe('Bots · Parley');
    const got = await suite.t.asOwner('GET', `/v1/admin/bots/${suite.t.botId}`);
    const botName = (got.json() as { bot: { name: string } }).bot.name;
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}/files`);
    await expect.poll(() => page.title()).toBe(`Files · ${botName} · Parley`);
    await page.getByRole('link', { name: 'Knowledge', exact: true }).click();
    await expect.poll(() => page.title()).toBe(`Knowledge · ${botName} · Parley`);
    await page.getByRole('link', { name: 'Audit', exact: true }).click();
    await expect.poll(() => page.title()).toBe('Audit · Parley');

    // The keyboard's first stop on a page just opened is "Skip to content", which moves the focus to the page's
    // main part.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Audit' }).waitFor();
    expect(await page.title()).toBe('Audit · Parley');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('main');
    expect(await axe(page), 'audit with the skip link').toEqual([]);

    // An icon of Parley's own, named by the page and answered at /favicon.ico too.
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const icon = await fetch(`${suite.origin}${path}`);
      expect(icon.status, path).toBe(200);
      expect(icon.headers.get('content-type'), path).toBe('image/svg+xml');
    }

    // The hosted webchat page is titled by the header's name, not the internal bot name.
    const put = await suite.t.asOwner('PUT', `/v1/admin/bots/${suite.t.botId}/webchat`, {
      configuration: { botName: 'Acme help desk' },
    });
    expect(put.statusCode, put.body).toBe(200);
    await page.goto(`${suite.origin}/webchat/${suite.t.botId}`);
    expect(await page.title()).toBe('Acme help desk');
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
    await suite.t.asOwner('PUT', `/v1/admin/bots/${suite.t.botId}/webchat`, { configuration: {} });
    expect(problems).toEqual([]);
  });

  it("the bot's replies: saved in words, stored, and an emptied field goes back to the default", async () => {
    const { page, problems } = await suite.signedInPage(1280, 'light');
    await page.goto(`${suite.origin}/console/bots/${suite.t.botId}`);
    const notFound = page.getByLabel('When nothing is found');
    await notFound.fill('Nothing on that yet: write to help@example.com.');
    await page.getByRole('button', { name: 'Save replies' }).click();
    await expect.poll(() => page.getByText(/^Replies saved/).isVisible()).toBe(true);
    const stored = async () =>
      (
        (await suite.t.asOwner('GET', `/v1/admin/bots/${suite.t.botId}`)).json() as {
          bot: { replies: object };
        }
      ).bot.replies;
    expect(await stored()).toEqual({ notFound: 'Nothing on that yet: write to help@example.com.' });
    await notFound.fill('');
    await page.getByRole('button', { name: 'Save replies' }).click();
    await expect.poll(stored).toEqual({});
    expect(problems).toEqual([]);
  });

  it('says in words when sign-ins are throttled (429)', async () => {
    const { page } = await newPage(390, 'light');
    await page.goto(`${suite.origin}/console/`);
    await page.getByLabel('Email').fill('nobody-here@example.com');
    await page.getByLabel('Password').fill('guessing again and again');
    // PARLEY_SIGN_IN_MAX_FAILURES_PER_ACCOUNT (5) failures for one e-mail, then 429 with Retry-After.
    const attempt = async () => {
      const answered = page.waitForResponse((r) => r.url().endsWith('/v1/admin/account/sessions'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      return (await answered).status();
    };
    for (let n = 0; n < 5; n++) {
      expect(await attempt()).toBe(401);
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong e-mail or password');
    }
    expect(await attempt()).toBe(429);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/^Too many attempts\. Try again in \d+ (minutes|seconds)\.$/);
  });
});
