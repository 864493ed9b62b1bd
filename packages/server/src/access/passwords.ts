import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/** The password policy: at least 12 characters, at most 256 (counted as Unicode code points). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** scrypt's cost parameters; stored with each hash so they can be raised without breaking older ones. */
export interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  ln: number;
  r: number;
  p: number;
}

/** The parameters new hashes are made with (N = 2^15, r = 8, p = 1: 32 MiB, tens of milliseconds). */
export const CURRENT_PARAMS: ScryptParams = { ln: 15, r: 8, p: 1 };
/** The cost test runs hash with (N = 2^4: microseconds), after `useTestPasswordCost()`. */
export const TEST_PARAMS: ScryptParams = { ln: 4, r: 8, p: 1 };
let newHashParams = CURRENT_PARAMS;

/**
 * Makes this process hash new passwords with TEST_PARAMS (the test setup file calls it), so a test suite's
 * hundreds of sign-ins do not each spend production's 32 MiB scrypt. Only inside a Vitest worker (`VITEST` set):
 * anywhere else it throws, so production can never run at the test cost. Stored hashes carry their parameters,
 * so verification is the same either way.
 */
export function useTestPasswordCost(): void {
  if (!process.env.VITEST) throw new Error('useTestPasswordCost() is for test runs only (VITEST is not set)');
  newHashParams = TEST_PARAMS;
}

/** The parameters new hashes are made with here: CURRENT_PARAMS, or TEST_PARAMS in a test run. */
export function currentParams(): ScryptParams {
  return newHashParams;
}
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, params: ScryptParams, keyBytes: number): Promise<Buffer> {
  const N = 2 ** params.ln;
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyBytes, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Why a password does not meet the policy, or undefined when it does. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
}

/**
 * The stored form of a password: `scrypt$ln=15,r=8,p=1$<salt>$<key>` (base64url), a fresh random salt each time.
 * @example await verifyPassword('correct horse battery', await hashPassword('correct horse battery')) // true
 */
export async function hashPassword(
  password: string,
  params: ScryptParams = currentParams(),
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params, KEY_BYTES);
  return `scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** The parameters, salt and key of a stored hash, or undefined when it is not one this module made. */
function parse(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | undefined {
  const match = /^scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!match) return undefined;
  const [ln, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (ln < 1 || ln > 24 || r < 1 || p < 1) return undefined;
  return {
    params: { ln, r, p },
    salt: Buffer.from(match[4] ?? '', 'base64url'),
    key: Buffer.from(match[5] ?? '', 'base64url'),
  };
}

/** Whether `password` is the one `stored` was made from (compared in constant time); false for a bad hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || parsed.key.length === 0) return false;
  const key = await derive(password, parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/** Whether a stored hash was made with weaker parameters than new hashes are (rehash it on the next sign-in). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  const { ln, r, p } = parsed.params;
  const current = currentParams();
  return ln < current.ln || r < current.r || p < current.p;
}

let dummy: Promise<string> | undefined;

/**
 * Spends the time of one verification against a hash no password matches: what a sign-in does for an e-mail
 * that has no account or no password, so its answer takes as long as a wrong password's.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(24).toString('base64url'));
  await verifyPassword(password, await dummy);
  return false;
}

/** A new random password (24 characters, 144 bits), as the first start generates for the owner. */
export function newPassword(): string {
  return randomBytes(18).toString('base64url');
}
