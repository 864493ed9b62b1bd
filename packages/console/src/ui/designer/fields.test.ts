import { describe, expect, it } from 'vitest';
import { FIELD_NAMES, toConfiguration, toValues } from './fields.js';

describe('webchat designer values', () => {
  it("has one input for each of the 24 fields of the spec table and Parley's 5", () => {
    expect(FIELD_NAMES).toHaveLength(29);
    expect(FIELD_NAMES).toEqual(
      expect.arrayContaining([
        'greeting',
        'suggestedQuestions',
        'handoffButton',
        'handoffKeywords',
        'defaultLocale',
      ]),
    );
  });

  it('sends the suggested questions trimmed, without blank ones, and none when all are blank', () => {
    const config = { greeting: 'Hi **there**', suggestedQuestions: ['Refunds?', 'Shipping?'] };
    expect(toConfiguration(toValues(config))).toEqual(config);
    const typed = { ...toValues({}), suggestedQuestions: [' Refunds? ', '', 'refunds?', '  '] };
    expect(toConfiguration(typed)).toEqual({ suggestedQuestions: ['Refunds?', 'refunds?'] });
    expect(toConfiguration({ ...toValues({}), suggestedQuestions: ['', ' '] })).toEqual({});
    expect(toValues({}).suggestedQuestions).toEqual([]);
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
