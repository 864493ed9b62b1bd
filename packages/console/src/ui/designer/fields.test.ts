import { describe, expect, it } from 'vitest';
import { FIELD_NAMES, toConfiguration, toValues } from './fields.js';

describe('webchat designer values', () => {
  it('has one input for each of the 24 fields of the spec table', () => {
    expect(FIELD_NAMES).toHaveLength(24);
  });

  it('round-trips a configuration, blank fields left out and booleans kept as set', () => {
    const config = {
      color: '#0A7F5A',
      radius: 2,
      themeMode: 'dark' as const,
      allowFileUpload: false,
      feedbackEnabled: true,
      botName: 'Helper',
      phone: { title: 'Call us', link: '+33 1 23 45 67 89' },
    };
    expect(toConfiguration(toValues(config))).toEqual(config);
    expect(toConfiguration(toValues({}))).toEqual({});
  });

  it('keeps a removed footer as "" and sends what was typed for the Admin API to judge', () => {
    const values = toValues({ footer: '' });
    expect(values.noFooter).toBe(true);
    expect(toConfiguration(values)).toEqual({ footer: '' });
    expect(
      toConfiguration({ ...toValues({}), radius: 'nine', email: { title: '', link: 'nobody' } }),
    ).toEqual({
      radius: 'nine',
      email: { title: '', link: 'nobody' },
    });
  });
});
