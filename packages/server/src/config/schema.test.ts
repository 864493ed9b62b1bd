import Type from 'typebox';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from './docs.js';
import { loadConfig } from './load.js';
import { invalidMessage } from './read.js';
import { CONFIG_SCHEMA, extension, VARIABLE_NAMES, variableSchema } from './schema.js';
import { CONFIG_SHAPE } from './shape.js';

const REQUIRED: readonly string[] = CONFIG_SCHEMA.required ?? [];

describe('the configuration schema', () => {
  it('gives every required variable a default that its own schema accepts', () => {
    for (const name of REQUIRED) {
      const schema = variableSchema(name as (typeof VARIABLE_NAMES)[number]);
      expect('default' in schema, name).toBe(true);
      expect(Value.Check(schema, schema.default), name).toBe(true);
    }
  });

  it('leaves the variables without a default optional', () => {
    const optional = VARIABLE_NAMES.filter((name) => !REQUIRED.includes(name));
    for (const name of optional) expect('default' in variableSchema(name), name).toBe(false);
  });

  it('describes every variable, and explains the refusal of every string with a format', () => {
    for (const name of VARIABLE_NAMES) {
      const schema = variableSchema(name);
      expect(String(schema.description ?? '').length, name).toBeGreaterThan(5);
      const constrained = ['pattern', 'minLength', 'maxLength', '~refine'].some((key) => key in schema);
      if (Type.IsString(schema) && constrained) expect(extension(name, 'x-invalid'), name).toBeDefined();
    }
  });

  it('derives the refusal message of numbers, booleans and enums from their schema', () => {
    expect(invalidMessage('PORT', 'x')).toBe('"x" must be an integer from 0 to 65535');
    expect(invalidMessage('PARLEY_SEARCH_DENSE_WEIGHT', '2')).toBe('"2" must be a number from 0 to 1');
    expect(invalidMessage('PARLEY_TRUST_PROXY', 'yes')).toBe('"yes" must be true or false');
    expect(invalidMessage('PARLEY_LOG_LEVEL', 'loud')).toBe(
      '"loud" must be one of fatal, error, warn, info, debug, trace, silent',
    );
    expect(invalidMessage('PARLEY_EMBEDDER', 'bert')).toBe('"bert" must be use-lite, onnx, openai or none');
    expect(invalidMessage('PARLEY_SIGNING_SECRET', 'x')).toBe('must be at least 32 characters');
  });

  it('reads LOG_LEVEL when PARLEY_LOG_LEVEL is unset', () => {
    expect(loadConfig({ LOG_LEVEL: 'WARN' }, '/srv').logLevel).toBe('warn');
    expect(loadConfig({ LOG_LEVEL: 'warn', PARLEY_LOG_LEVEL: 'debug' }, '/srv').logLevel).toBe('debug');
  });

  it('lists every variable for parley --help with what it accepts and its default, as plain text', () => {
    expect(Object.keys(CONFIG_VARIABLES)).toEqual(VARIABLE_NAMES);
    expect(CONFIG_VARIABLES.PORT).toBe('TCP port [integer 0–65535; default 3000]');
    expect(CONFIG_VARIABLES.PARLEY_ADMIN_TOKEN).toContain('32–200 characters, no spaces; default generated');
    for (const text of Object.values(CONFIG_VARIABLES)) expect(text).not.toContain('`');
  });
});

describe('the parsed shape', () => {
  it('is what loadConfig answers, by default and with settings', () => {
    expect(Value.Check(CONFIG_SHAPE, loadConfig({}, '/srv'))).toBe(true);
    const config = loadConfig(
      {
        PARLEY_S3_BUCKET: 'parley-files',
        PARLEY_QUOTA_BOTS_PER_WORKSPACE: '3',
        PARLEY_CORS_ORIGINS: 'https://a.example',
        PARLEY_EMBEDDER: 'openai',
        PARLEY_EMBEDDINGS_URL: 'http://127.0.0.1:11434',
        PARLEY_EMBEDDINGS_MODEL: 'm',
        PARLEY_EMBEDDINGS_DIMENSIONS: '8',
      },
      '/srv',
    );
    expect([...Value.Errors(CONFIG_SHAPE, config)]).toEqual([]);
  });
});
