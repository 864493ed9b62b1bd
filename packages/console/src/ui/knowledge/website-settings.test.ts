import type { KnowledgeSource } from '@parley/client';
import { describe, expect, it } from 'vitest';
import { settingsChanges, settingsOf } from './website-settings.js';

const source = (over: Partial<KnowledgeSource> = {}) =>
  ({
    id: 'src_1',
    knowledgeBaseId: 'kb_1',
    url: 'https://example.com/',
    include: ['/docs/**'],
    exclude: [],
    maxPages: 500,
    maxDepth: 10,
    subdomains: false,
    schedule: 'daily',
    ...over,
  }) as KnowledgeSource;

describe("a site's settings form", () => {
  it('starts from the source: patterns comma-separated, the limits, subdomains, a cron in its own field', () => {
    expect(settingsOf(source())).toEqual({
      include: '/docs/**',
      exclude: '',
      maxPages: '500',
      maxDepth: '10',
      subdomains: false,
      schedule: 'daily',
      cron: '',
    });
    expect(settingsOf(source({ schedule: '0 3 * * 1', exclude: ['/a', '/b'] }))).toMatchObject({
      exclude: '/a, /b',
      schedule: 'cron',
      cron: '0 3 * * 1',
    });
  });

  it('sends nothing when nothing changed, however the patterns are spaced', () => {
    const s = source({ include: ['/docs/**', '/help/*'] });
    expect(settingsChanges(s, settingsOf(s))).toEqual({});
    expect(settingsChanges(s, { ...settingsOf(s), include: ' /docs/** ,\n/help/* ' })).toEqual({});
  });

  it('sends only what changed: a cron typed with spaces around it, the limits, subdomains, off to stop, paths cleared', () => {
    const s = source();
    expect(
      settingsChanges(s, { ...settingsOf(s), schedule: 'cron', cron: ' 0 3 * * 1 ', maxPages: '20' }),
    ).toEqual({ schedule: '0 3 * * 1', maxPages: 20 });
    expect(settingsChanges(s, { ...settingsOf(s), schedule: 'off' })).toEqual({ schedule: 'off' });
    expect(settingsChanges(s, { ...settingsOf(s), maxDepth: '2', subdomains: true })).toEqual({
      maxDepth: 2,
      subdomains: true,
    });
    expect(settingsChanges(s, { ...settingsOf(s), include: '', exclude: '/blog/**' })).toEqual({
      include: [],
      exclude: ['/blog/**'],
    });
  });

  it('sends a cron the server will judge as typed, and an empty one (the server refuses it)', () => {
    const s = source({ schedule: '0 3 * * 1' });
    expect(settingsChanges(s, { ...settingsOf(s), cron: '61 * * * *' })).toEqual({ schedule: '61 * * * *' });
    expect(settingsChanges(s, { ...settingsOf(s), cron: '' })).toEqual({ schedule: '' });
  });
});
