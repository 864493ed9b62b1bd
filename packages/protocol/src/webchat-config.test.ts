import { describe, expect, it } from 'vitest';
import {
  FULL_WEBCHAT_CONFIGURATION,
  PARLEY_WEBCHAT_FIELDS as PARLEY_FIELDS,
  SPEC_WEBCHAT_FIELDS as SPEC_FIELDS,
} from '../../testkit/src/protocol/webchat-config.js';
import { FORBIDDEN_KEY_MESSAGE } from './keys.js';
import {
  validateWebchatConfiguration,
  WEBCHAT_CONFIGURATION_FIELDS,
  webchatLocaleOf,
} from './webchat-config.js';

/** A valid value of every field (the spec's table, then Parley's own). */
const VALID: Record<string, unknown> = FULL_WEBCHAT_CONFIGURATION;
const ALL_FIELDS = [...SPEC_FIELDS, ...PARLEY_FIELDS];

const check = (config: unknown) => validateWebchatConfiguration(config);
const fieldsOf = (config: unknown) => check(config).map((i) => i.field);

describe('validateWebchatConfiguration: valid values', () => {
  it("knows exactly the fields of the spec table, in its order, then Parley's greeting and suggested questions", () => {
    expect(WEBCHAT_CONFIGURATION_FIELDS).toEqual(ALL_FIELDS);
    expect(Object.keys(VALID)).toEqual(ALL_FIELDS);
  });

  for (const field of ALL_FIELDS) {
    it(`accepts a valid ${field}`, () => {
      expect(check({ [field]: VALID[field] })).toEqual([]);
    });
  }

  it('accepts every field at once', () => {
    expect(check(VALID)).toEqual([]);
  });

  it('accepts an empty configuration', () => {
    expect(check({})).toEqual([]);
  });

  it('accepts a blank string for every string, URL, colour and enum field (the dashboard value applies)', () => {
    const blanks = {
      botName: '',
      botAvatar: '',
      botDescription: '',
      composerPlaceholder: '',
      color: '',
      themeMode: '',
      variant: '',
      fabImage: '',
      fontFamily: '',
      additionalStylesheet: '',
      additionalStylesheetUrl: '',
      storageLocation: '',
      footer: '',
      headerVariant: '',
      adminKey: '',
      greeting: '',
      defaultLocale: '',
    };
    expect(check(blanks)).toEqual([]);
  });

  it('ignores fields set to undefined', () => {
    expect(check({ radius: undefined, color: undefined })).toEqual([]);
  });
});

describe('validateWebchatConfiguration: radius', () => {
  it('accepts the bounds 0.5 and 4', () => {
    expect(check({ radius: 0.5 })).toEqual([]);
    expect(check({ radius: 4 })).toEqual([]);
  });

  it('rejects 0.49 and 4.01', () => {
    expect(check({ radius: 0.49 })).toEqual([
      { field: 'radius', message: 'must be a number between 0.5 and 4' },
    ]);
    expect(check({ radius: 4.01 })).toEqual([
      { field: 'radius', message: 'must be a number between 0.5 and 4' },
    ]);
  });

  it('rejects a radius that is not a finite number', () => {
    for (const radius of ['2', Number.NaN, Number.POSITIVE_INFINITY, null, true]) {
      expect(fieldsOf({ radius }), String(radius)).toEqual(['radius']);
    }
  });
});

describe('validateWebchatConfiguration: colour', () => {
  it('accepts HEX colours of 3, 4, 6 and 8 digits in either case', () => {
    for (const color of ['#fff', '#FFFA', '#3276ea', '#3276EA80'])
      expect(check({ color }), color).toEqual([]);
  });

  it('rejects anything else', () => {
    for (const color of ['3276EA', '#3276E', '#GGGGGG', 'red', 'rgb(0,0,0)', '#3276EA8', 12]) {
      expect(fieldsOf({ color }), String(color)).toEqual(['color']);
    }
    expect(check({ color: 'blue' })).toEqual([
      { field: 'color', message: 'must be a HEX colour such as #3276EA' },
    ]);
  });
});

describe('validateWebchatConfiguration: enums', () => {
  const enums: Record<string, string[]> = {
    themeMode: ['light', 'dark'],
    variant: ['solid', 'soft'],
    storageLocation: ['localStorage', 'sessionStorage'],
    headerVariant: ['solid', 'glass'],
  };
  for (const [field, allowed] of Object.entries(enums)) {
    it(`accepts ${allowed.join(' and ')} for ${field} and nothing else`, () => {
      for (const value of allowed) expect(check({ [field]: value })).toEqual([]);
      expect(check({ [field]: 'other' })).toEqual([
        { field, message: `must be one of ${allowed.join(', ')}` },
      ]);
      expect(fieldsOf({ [field]: allowed[0]?.toUpperCase() })).toEqual([field]);
      expect(fieldsOf({ [field]: 1 })).toEqual([field]);
    });
  }
});

describe('validateWebchatConfiguration: URLs', () => {
  for (const field of ['botAvatar', 'fabImage', 'additionalStylesheetUrl']) {
    it(`accepts only http(s) URLs for ${field}`, () => {
      expect(check({ [field]: 'https://a.example/x.png' })).toEqual([]);
      expect(check({ [field]: 'http://a.example/x.png' })).toEqual([]);
      expect(check({ [field]: 'javascript:alert(1)' })).toEqual([
        { field, message: 'must be an http(s) URL' },
      ]);
      expect(fieldsOf({ [field]: 'ftp://a.example/x.png' })).toEqual([field]);
      expect(fieldsOf({ [field]: '/relative/x.png' })).toEqual([field]);
      expect(check({ [field]: 42 })).toEqual([{ field, message: 'must be a string' }]);
    });
  }
});

describe('validateWebchatConfiguration: strings and booleans', () => {
  const limits: Record<string, number> = {
    botName: 200,
    botDescription: 2000,
    composerPlaceholder: 200,
    fontFamily: 100,
    footer: 2000,
    adminKey: 500,
    additionalStylesheet: 100_000,
    greeting: 500,
  };
  for (const [field, max] of Object.entries(limits)) {
    it(`limits ${field} to ${max} characters`, () => {
      expect(check({ [field]: 'a'.repeat(max) })).toEqual([]);
      expect(check({ [field]: 'a'.repeat(max + 1) })).toEqual([
        { field, message: `must be at most ${max} characters` },
      ]);
      expect(check({ [field]: 7 })).toEqual([{ field, message: 'must be a string' }]);
    });
  }

  for (const field of ['allowFileUpload', 'showPoweredBy', 'feedbackEnabled']) {
    it(`accepts only booleans for ${field}`, () => {
      expect(check({ [field]: false })).toEqual([]);
      expect(check({ [field]: 'true' })).toEqual([{ field, message: 'must be a boolean' }]);
      expect(fieldsOf({ [field]: 1 })).toEqual([field]);
    });
  }
});

describe('validateWebchatConfiguration: link objects', () => {
  for (const field of ['phone', 'email', 'website', 'termsOfService', 'privacyPolicy']) {
    it(`requires {title, link} for ${field}`, () => {
      expect(check({ [field]: VALID[field] })).toEqual([]);
      expect(check({ [field]: 'https://example.com' })).toEqual([
        { field, message: 'must be an object {title: string, link: string}' },
      ]);
      expect(check({ [field]: ['t', 'l'] })).toEqual([
        { field, message: 'must be an object {title: string, link: string}' },
      ]);
      expect(check({ [field]: null })).toEqual([
        { field, message: 'must be an object {title: string, link: string}' },
      ]);
      expect(check({ [field]: { link: 'https://example.com' } })).toEqual([
        { field, message: 'title must be a string' },
      ]);
      expect(check({ [field]: { title: 'T' } })).toEqual([
        { field, message: 'link must be a non-empty string' },
      ]);
      expect(check({ [field]: { title: 'T', link: '  ' } })).toEqual([
        { field, message: 'link must be a non-empty string' },
      ]);
      expect(check({ [field]: { ...(VALID[field] as object), icon: 'x' } })).toEqual([
        { field, message: 'unknown key icon (only title and link)' },
      ]);
    });
  }

  it('accepts a phone number, a tel: link or a URL as the phone link', () => {
    for (const link of ['+44 20 7946 0958', 'tel:+15550100', '(555) 010-0000', 'https://example.com/call']) {
      expect(check({ phone: { title: 'Call', link } }), link).toEqual([]);
    }
    expect(check({ phone: { title: 'Call', link: 'call me maybe' } })).toEqual([
      { field: 'phone', message: 'link must be a phone number, a tel: link or a URL' },
    ]);
  });

  it('accepts an address or a mailto: link as the email link', () => {
    expect(check({ email: { title: 'Mail', link: 'mailto:help@example.com' } })).toEqual([]);
    expect(check({ email: { title: 'Mail', link: 'help@example.com' } })).toEqual([]);
    expect(check({ email: { title: 'Mail', link: 'https://example.com' } })).toEqual([
      { field: 'email', message: 'link must be an e-mail address or a mailto: link' },
    ]);
  });

  for (const field of ['website', 'termsOfService', 'privacyPolicy']) {
    it(`requires an http(s) URL as the ${field} link`, () => {
      expect(check({ [field]: { title: 'T', link: 'mailto:a@b.c' } })).toEqual([
        { field, message: 'link must be an http(s) URL' },
      ]);
    });
  }

  it('accepts a blank title', () => {
    expect(check({ website: { title: '', link: 'https://example.com' } })).toEqual([]);
  });
});

describe('validateWebchatConfiguration: suggested questions', () => {
  const issue = (suggestedQuestions: unknown) => check({ suggestedQuestions });
  const refused = (message: string) => [{ field: 'suggestedQuestions', message }];

  it('accepts none, one, or four distinct questions of up to 200 characters', () => {
    expect(issue([])).toEqual([]);
    expect(issue(['Where is my order?'])).toEqual([]);
    expect(issue(['a', 'b', 'c', 'q'.repeat(200)])).toEqual([]);
  });

  it('rejects a value that is not a list', () => {
    for (const value of ['Where is my order?', { 0: 'a' }, null, 4]) {
      expect(issue(value), String(value)).toEqual(refused('must be a list of questions (strings)'));
    }
  });

  it('rejects a fifth question', () => {
    expect(issue(['a', 'b', 'c', 'd', 'e'])).toEqual(refused('must have at most 4 questions (has 5)'));
  });

  it('rejects a question that is not a string, naming it (counted from 1)', () => {
    expect(issue(['a', 2])).toEqual(refused('question 2 must be a string'));
    expect(issue([null])).toEqual(refused('question 1 must be a string'));
  });

  it('rejects an empty or blank question', () => {
    expect(issue(['a', ''])).toEqual(refused('question 2 must not be blank'));
    expect(issue([' \t\n'])).toEqual(refused('question 1 must not be blank'));
  });

  it('rejects a question longer than 200 characters', () => {
    expect(issue(['a', 'b', 'q'.repeat(201)])).toEqual(refused('question 3 must be at most 200 characters'));
  });

  it('rejects a repeated question, ignoring case and surrounding spaces', () => {
    expect(issue(['Refunds?', 'Shipping?', ' refunds? '])).toEqual(refused('question 3 repeats question 1'));
  });
});

describe('validateWebchatConfiguration: rejections', () => {
  it('rejects a field the spec does not have', () => {
    expect(check({ botname: 'x' })).toEqual([
      { field: 'botname', message: 'is not a webchat configuration field' },
    ]);
  });

  it('rejects a configuration that is not an object', () => {
    for (const input of [null, 'x', 3, ['botName']]) {
      expect(check(input)).toEqual([{ field: 'configuration', message: 'must be an object' }]);
    }
  });

  it('reports every bad field at once, in input order', () => {
    expect(
      check({
        botName: 'fine',
        radius: 9,
        color: 'blue',
        themeMode: 'sepia',
        allowFileUpload: 'yes',
        website: { title: 'x', link: 'not a url' },
        favouriteColour: 'green',
      }),
    ).toEqual([
      { field: 'radius', message: 'must be a number between 0.5 and 4' },
      { field: 'color', message: 'must be a HEX colour such as #3276EA' },
      { field: 'themeMode', message: 'must be one of light, dark' },
      { field: 'allowFileUpload', message: 'must be a boolean' },
      { field: 'website', message: 'link must be an http(s) URL' },
      { field: 'favouriteColour', message: 'is not a webchat configuration field' },
    ]);
  });
});

describe('validateWebchatConfiguration: prototype keys', () => {
  it('refuses __proto__, constructor and prototype as fields, and answers inherited names as unknown fields', () => {
    // JSON.parse makes "__proto__" an own key, as a request body has it.
    const input = JSON.parse(
      '{"__proto__":{"x":1},"constructor":{"prototype":{"x":1}},"prototype":1,"toString":"x","hasOwnProperty":1}',
    );
    expect(check(input)).toEqual([
      { field: '__proto__', message: FORBIDDEN_KEY_MESSAGE },
      { field: 'constructor', message: FORBIDDEN_KEY_MESSAGE },
      { field: 'prototype', message: FORBIDDEN_KEY_MESSAGE },
      { field: 'toString', message: 'is not a webchat configuration field' },
      { field: 'hasOwnProperty', message: 'is not a webchat configuration field' },
    ]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('validateWebchatConfiguration: defaultLocale', () => {
  it('accepts a shipped language with or without a region, script or any case', () => {
    for (const tag of ['de', 'fr-CA', 'pt-BR', 'zh-Hant-TW', 'AR', 'he-IL'])
      expect(check({ defaultLocale: tag })).toEqual([]);
  });

  it('refuses an unshipped language, a malformed tag, a non-string and an overlong tag, naming the shipped ones', () => {
    for (const value of ['ko', 'fr_CA', 'français', '-fr', 7, `fr-${'a'.repeat(40)}`]) {
      const issues = check({ defaultLocale: value });
      expect(
        issues.map((i) => i.field),
        String(value),
      ).toEqual(['defaultLocale']);
    }
    expect(check({ defaultLocale: 'ko' })[0]?.message).toContain(
      'en, fr, de, es, it, pt, nl, ja, zh, ar, he',
    );
  });

  it('maps a tag to its shipped language by the chain fr-CA → fr (undefined otherwise)', () => {
    expect(webchatLocaleOf('fr-CA')).toBe('fr');
    expect(webchatLocaleOf('DE-de')).toBe('de');
    expect(webchatLocaleOf('ko-KR')).toBeUndefined();
    expect(webchatLocaleOf('not a tag')).toBeUndefined();
  });
});
