import { expect } from 'vitest';

/** A token or key as the Admin API shows it (its value only when just created). */
export interface TokenBody {
  id: string;
  note: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  value?: string;
}

/** Asserts a token just created: a `tok_` id, the note, a value of its kind's prefix, unused, no expiry. */
export function expectNewToken(token: TokenBody, note: string, prefix: 'pat_' | 'bak_' | 'iak_'): void {
  expect(token).toEqual({
    id: expect.stringMatching(/^tok_/),
    note,
    value: expect.stringMatching(new RegExp(`^${prefix}`)),
    createdAt: expect.any(String),
    lastUsedAt: null,
    expiresAt: null,
  });
}
