import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import { notFoundPage, prefersHtml } from './not-found-page.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('/webchat/<unknown bot>', () => {
  const t = useTestApp();

  it('shows a browser a small HTML page (404, no script) saying the bot does not exist or is not published', async () => {
    const res = await t.call({ method: 'GET', url: '/webchat/bot_nope', headers: { accept: BROWSER } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.vary).toContain('accept');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(res.body).toMatch(/^<!doctype html>/);
    expect(res.body).toContain('<code>bot_nope</code> does not exist or is not published');
    expect(res.body.toLowerCase()).not.toContain('<script');
  });

  it.each([
    ['no Accept header', undefined],
    ['*/*', '*/*'],
    ['application/json', 'application/json'],
    ['JSON preferred over HTML', 'text/html;q=0.5, application/json'],
  ])('keeps the JSON error for an API client (%s)', async (_name, accept) => {
    const res = await t.call({
      method: 'GET',
      url: '/webchat/bot_nope',
      ...(accept ? { headers: { accept } } : {}),
    });
    expectError(res, 404, 'ResourceNotFound');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ message: 'Bot "bot_nope" was not found' });
  });

  it('still serves an existing bot its hosted page in a browser', async () => {
    const res = await t.call({ method: 'GET', url: `/webchat/${t.botId}`, headers: { accept: BROWSER } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`data-bot-id="${t.botId}"`);
  });
});

describe('notFoundPage and prefersHtml', () => {
  it('escapes the bot id it names', () => {
    const html = notFoundPage('"><script>alert(1)</script>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it.each([
    [BROWSER, true],
    ['text/html', true],
    ['text/*', true],
    ['*/*', false],
    ['application/json, text/html;q=0.9', false],
    ['text/html;q=0, */*', false],
    ['', false],
  ])('%s → %s', (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected);
  });
});
