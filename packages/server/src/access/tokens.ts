import { hash, randomBytes } from 'node:crypto';

/** Kinds of token and the prefix each one's value starts with. */
export const TOKEN_PREFIXES = {
  pat: 'pat_',
  bak: 'bak_',
  iak: 'iak_',
} as const;
/** A kind of token: personal access token, bot access key, integration access key. */
export type TokenKind = keyof typeof TOKEN_PREFIXES;

/** A new opaque token value: the kind's prefix and 256 random bits. */
export function newTokenValue(kind: TokenKind): string {
  return `${TOKEN_PREFIXES[kind]}${randomBytes(32).toString('base64url')}`;
}

/**
 * The stored form of a token: its SHA-256 (tokens are high-entropy, so no slow hash is needed). One-shot
 * `crypto.hash`: every authenticated request hashes its token, and a Hash object costs ~3× as much.
 */
export function hashToken(value: string): string {
  return hash('sha256', value, 'hex');
}

/**
 * Compares a presented token's hash with a stored hash in constant time: every character of equal-length
 * hashes is looked at whatever differs (decoding both to Buffers for `timingSafeEqual` cost each
 * authenticated request over twice as much). Hashes of different lengths differ.
 */
export function sameHash(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let differ = 0;
  for (let i = 0; i < a.length; i++) differ |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return differ === 0;
}

/** A one-time invitation code. */
export function newInvitationCode(): string {
  return `inv_${randomBytes(24).toString('base64url')}`;
}

/** A new session's secret, the value of its cookie: 256 random bits (only its SHA-256 is stored). */
export function newSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}
