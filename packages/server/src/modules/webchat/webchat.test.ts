import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';
import { expectError } from '../../../../testkit/src/server/wire.js';
import { escapeHtml, webchatService } from './service.js';

describe('webchat serving', () => {
  const t = useTestApp();

  it('answers a bot public configuration without its adminKey, and 404 for an unknown bot', async () => {
    const put = await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
      configuration: { botName: 'Helper', adminKey: 'top-secret', feedbackEnabled: true },
    });
    expect(put.statusCode, put.body).toBe(200);
    const res = await t.call({ method: 'GET', url: `/webchat/v1/bots/${t.botId}/config` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.json()).toEqual({
      bot: { id: t.botId, name: expect.any(String) },
      configuration: { botName: 'Helper', feedbackEnabled: true },
    });
    expect(res.body).not.toContain('top-secret');
    expectError(
      await t.call({ method: 'GET', url: '/webchat/v1/bots/nope/config' }),
      404,
      'ResourceNotFound',
    );
  });

  it('serves the hosted page with the bot name escaped, a nonce and a CSP', async () => {
    await t.asOwner('PUT', `/v1/admin/bots/${t.botId}/webchat`, {
      configuration: { botName: '</title><script>alert(1)</script>' },
    });
    const res = await t.call({ method: 'GET', url: `/webchat/${t.botId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).not.toContain('<script>alert(1)</script>');
    expect(res.body).toContain('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    const nonce = /script-src 'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(nonce).toBeTruthy();
    expect(res.body).toContain(`nonce="${nonce}"`);
    expect(res.body).toContain(`data-bot-id="${t.botId}"`);
    // Titled by the header's name (not the internal bot name), with Parley's icon.
    expect(res.body).toContain('<title>&lt;/title&gt;');
    expect(res.body).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    const again = await t.call({ method: 'GET', url: `/webchat/${t.botId}` });
    expect(again.headers['content-security-policy']).not.toBe(res.headers['content-security-policy']);
    expect((await t.call({ method: 'GET', url: '/webchat/nope' })).statusCode).toBe(404);
  });

  it('answers 404 with the build command when the bundle is not built, and for unknown files', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'parley-webchat-dist-'));
    try {
      const service = webchatService({ bots: { chatFacts: async () => undefined }, distDir: empty });
      expect(await service.asset('inject.js')).toBeUndefined();
      expect(await service.asset('../package.json')).toBeUndefined();
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
    const unknown = await t.call({ method: 'GET', url: '/webchat/v1/evil.js' });
    expectError(unknown, 404, 'ResourceNotFound');
  });

  it('escapes every HTML-special character', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
