import { ERROR_TYPES } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { ApiError, errorBody, errors, newErrorId } from './errors.js';

const ERROR_ID = /^err_\d{14}x[0-9a-f]{8}$/;

describe('newErrorId', () => {
  it('is err_, the UTC time as 14 digits, x and 8 hex digits', () => {
    const id = newErrorId(new Date('2026-03-04T05:06:07.890Z'));
    expect(id).toMatch(/^err_20260304050607x[0-9a-f]{8}$/);
  });

  it('uses the current time by default', () => {
    const before = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 8);
    const id = newErrorId();
    expect(id).toMatch(ERROR_ID);
    expect(id.slice(4, 12)).toBe(before);
  });

  it('differs between two errors of the same second', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const ids = new Set(Array.from({ length: 50 }, () => newErrorId(at)));
    expect(ids.size).toBe(50);
  });
});

describe('ApiError', () => {
  it('takes its HTTP code from the error type', () => {
    const error = new ApiError('ResourceNotFound', 'gone fishing');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.code).toBe(404);
    expect(error.type).toBe('ResourceNotFound');
    expect(error.message).toBe('gone fishing');
    expect(error.metadata).toBeUndefined();
  });

  it('has the code of the wire catalogue for every type', () => {
    for (const [type, code] of Object.entries(ERROR_TYPES)) {
      expect(new ApiError(type as keyof typeof ERROR_TYPES, 'm').code).toBe(code);
    }
  });
});

describe('errorBody', () => {
  it('has exactly id, code, type and message when there is no metadata', () => {
    const body = errorBody(new ApiError('Forbidden', 'no'), 'err_20260101000000xdeadbeef');
    expect(body).toStrictEqual({
      id: 'err_20260101000000xdeadbeef',
      code: 403,
      type: 'Forbidden',
      message: 'no',
    });
  });

  it('adds metadata when the error has some', () => {
    const body = errorBody(errors.invalidPayload('bad', [{ field: 'name', message: 'too long' }]), 'err_x');
    expect(body).toStrictEqual({
      id: 'err_x',
      code: 400,
      type: 'InvalidPayload',
      message: 'bad',
      metadata: { errors: [{ field: 'name', message: 'too long' }] },
    });
  });

  it('makes a fresh error id when none is given', () => {
    expect(errorBody(new ApiError('Internal', 'x')).id).toMatch(ERROR_ID);
  });
});

describe('error factories', () => {
  it('say which resource was not found', () => {
    const e = errors.notFound('Bot', 'abc');
    expect([e.type, e.code, e.message]).toEqual(['ResourceNotFound', 404, 'Bot "abc" was not found']);
  });

  it('give each failure its type and code', () => {
    const made = [
      errors.forbidden('f'),
      errors.unauthorized('u'),
      errors.invalidPayload('p'),
      errors.invalidQuery('q'),
      errors.alreadyExists('a'),
      errors.quotaExceeded('x'),
      errors.gone('g'),
    ].map((e) => [e.type, e.code, e.message, e.metadata]);
    expect(made).toEqual([
      ['Forbidden', 403, 'f', undefined],
      ['Unauthorized', 401, 'u', undefined],
      ['InvalidPayload', 400, 'p', undefined],
      ['InvalidQuery', 400, 'q', undefined],
      ['AlreadyExists', 409, 'a', undefined],
      ['QuotaExceeded', 403, 'x', undefined],
      ['ResourceGone', 410, 'g', undefined],
    ]);
  });

  it('list the invalid fields of a query in metadata.errors', () => {
    const e = errors.invalidQuery('bad query', [{ field: 'pageSize', message: 'must be at most 100' }]);
    expect(e.metadata).toEqual({ errors: [{ field: 'pageSize', message: 'must be at most 100' }] });
  });
});
