import { ApiError } from '@parley/client';
import { describe, expect, it } from 'vitest';
import { apiFieldErrors } from './field-errors.js';

const NAMES = ['name', 'contactEmail', 'website'] as const;

function refusal(status: number, errors?: Array<{ field: string; message: string }>) {
  return new ApiError({
    id: 'err_1',
    code: status,
    type: status === 400 ? 'InvalidPayload' : 'Forbidden',
    message: 'Invalid request body',
    ...(errors ? { metadata: { errors } } : {}),
  });
}

describe('apiFieldErrors', () => {
  it.each([
    {
      what: "gives each field the Admin API's own message, the clear branch of a union over its vague words",
      errors: [
        { field: 'name', message: 'must NOT have fewer than 1 characters' },
        { field: 'contactEmail', message: 'must be equal to constant' },
        { field: 'contactEmail', message: 'must match format "email"' },
        { field: 'contactEmail', message: 'must match a schema in anyOf' },
      ],
      shown: { name: 'must NOT have fewer than 1 characters', contactEmail: 'must match format "email"' },
    },
    {
      what: 'keeps vague words when they are all there is, and names a nested field by its top-level one',
      errors: [
        { field: 'website', message: 'must match a schema in anyOf' },
        { field: 'name.first', message: 'must be string' },
      ],
      shown: { website: 'must match a schema in anyOf', name: 'must be string' },
    },
  ])('$what', ({ errors, shown }) => {
    expect(apiFieldErrors(refusal(400, errors), NAMES)).toEqual(shown);
  });

  it('answers undefined for what is not a refusal of these fields (shown as the form error instead)', () => {
    expect(apiFieldErrors(refusal(403), NAMES)).toBeUndefined();
    expect(apiFieldErrors(refusal(400), NAMES)).toBeUndefined();
    expect(
      apiFieldErrors(refusal(400, [{ field: 'body', message: 'must be object' }]), NAMES),
    ).toBeUndefined();
    expect(apiFieldErrors(new Error('offline'), NAMES)).toBeUndefined();
  });
});
