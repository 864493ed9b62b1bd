import { describe, expect, it } from 'vitest';
import {
  checkConfiguration,
  fontStack,
  mergeConfiguration,
  resolveConfiguration,
  withoutSecrets,
} from './config.js';

describe('webchat configuration', () => {
  it('merges layers, later ones winning, with blank fields keeping the earlier value', () => {
    const merged = mergeConfiguration(
      { botName: 'Dashboard', color: '#111111', radius: 2, themeMode: 'dark' },
      { botName: '', color: '#222222', themeMode: '' },
      { radius: 3 },
    );
    expect(merged).toEqual({ botName: 'Dashboard', color: '#222222', radius: 3, themeMode: 'dark' });
  });

  it('lets an empty footer remove the footer', () => {
    expect(mergeConfiguration({ footer: 'Made by **us**' }, { footer: '' }).footer).toBe('');
    expect(resolveConfiguration(mergeConfiguration({ footer: '' })).footer).toBe('');
    expect(resolveConfiguration(mergeConfiguration({})).footer).toBeUndefined();
  });

  it('lets the page replace or remove the greeting and the suggested questions of the dashboard', () => {
    const dashboard = { greeting: 'Hi from the dashboard', suggestedQuestions: ['Refunds?', 'Shipping?'] };
    expect(mergeConfiguration(dashboard, {})).toEqual(dashboard);
    expect(
      mergeConfiguration(dashboard, { greeting: 'Hi from the page', suggestedQuestions: ['Hours?'] }),
    ).toEqual({ greeting: 'Hi from the page', suggestedQuestions: ['Hours?'] });
    expect(mergeConfiguration(dashboard, { greeting: '', suggestedQuestions: [] })).toEqual({
      greeting: '',
      suggestedQuestions: [],
    });
    expect(checkConfiguration({ suggestedQuestions: ['a', 'a'] }).error?.field).toBe('suggestedQuestions');
  });

  it('fills defaults and uses the bot name when no botName is set', () => {
    const resolved = resolveConfiguration({}, 'Helper');
    expect(resolved).toMatchObject({
      botName: 'Helper',
      color: '#3276EA',
      themeMode: 'light',
      variant: 'solid',
      storageLocation: 'localStorage',
      allowFileUpload: false,
    });
    expect(resolveConfiguration({ botName: 'Custom' }, 'Helper').botName).toBe('Custom');
  });

  it.each([
    [{ radius: 7 }, 'radius'],
    [{ radius: 0.2 }, 'radius'],
    [{ color: 'red' }, 'color'],
    [{ themeMode: 'blue' }, 'themeMode'],
    [{ variant: 'loud' }, 'variant'],
    [{ headerVariant: 'flat' }, 'headerVariant'],
    [{ storageLocation: 'cookie' }, 'storageLocation'],
    [{ phone: { title: 'x' } }, 'phone'],
    [{ website: { title: 'x', link: 'ftp://x' } }, 'website'],
    [{ allowFileUpload: 'yes' }, 'allowFileUpload'],
    [{ nonsense: 1 }, 'nonsense'],
  ])('reports %j as an error naming %s', (input, field) => {
    const { error } = checkConfiguration(input);
    expect(error?.field).toBe(field);
    expect(error?.message).toContain(field);
  });

  it('accepts showPoweredBy with a deprecation warning', () => {
    const { error, warnings } = checkConfiguration({ showPoweredBy: true });
    expect(error).toBeUndefined();
    expect(warnings[0]).toMatch(/showPoweredBy is deprecated.*footer/);
  });

  // Each field's valid values are the protocol's tests (validateWebchatConfiguration, on the testkit's full
  // configuration); here, that the webchat passes a valid configuration on as it is.
  it('accepts a valid configuration with no warning', () => {
    const config = {
      botName: 'a',
      color: '#3276EA',
      phone: { title: 'Call', link: '+1 555 0100' },
      greeting: 'Hi',
    };
    expect(checkConfiguration(config)).toEqual({ warnings: [] });
  });

  it('drops the adminKey from what the page reads back, and builds font stacks', () => {
    expect(withoutSecrets({ adminKey: 'k', botName: 'x' })).toEqual({ botName: 'x' });
    expect(fontStack('ibm plex sans')).toBe('"IBM Plex Sans", system-ui, -apple-system, sans-serif');
    expect(fontStack('Lobster"</style>')).toBe('"Lobster</style>", system-ui, -apple-system, sans-serif');
  });
});
