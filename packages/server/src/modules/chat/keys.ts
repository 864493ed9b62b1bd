import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { errors } from '../../errors/errors.js';

/** How to get a user key, said in every 401 of the Chat API. */
export const USER_KEY_HELP =
  'Send "x-user-key: <key>": the key POST /users answered, or an HS256 JWT of {"id": "<user id>"} your backend signs with the bot\'s chat user key secret (GET /v1/admin/bots/{id}/chat)';

/** A fresh secret that signs a bot's chat user keys (the HMAC key is the UTF-8 bytes of the whole string). */
export function newUserKeySecret(): string {
  return `cks_${randomBytes(32).toString('base64url')}`;
}

/** A fresh secret that signs a bot's webhook requests (the HMAC key is the UTF-8 bytes of the whole string). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * Signs a user key: an HS256 JWT whose payload is `{id}`, as a site backend would.
 * @example await signUserKey('cks_…', 'user-42') // "eyJhbGciOiJIUzI1NiJ9…"
 */
export async function signUserKey(secret: string, userId: string): Promise<string> {
  return new SignJWT({ id: userId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .sign(new TextEncoder().encode(secret));
}

/**
 * Verifies a user key against the bot's secret and answers the user id it names. Only HS256 is accepted
 * (`alg: none` and every other algorithm are refused); `exp`/`nbf`, when present, are honoured.
 * Any failure answers 401 saying how to fix it.
 */
export async function verifyUserKey(secret: string, key: string): Promise<string> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(key, new TextEncoder().encode(secret), { algorithms: ['HS256'] }));
  } catch (error) {
    const why =
      error instanceof joseErrors.JWTExpired
        ? 'it has expired'
        : error instanceof joseErrors.JOSEAlgNotAllowed
          ? 'it is not signed with HS256'
          : error instanceof joseErrors.JWSSignatureVerificationFailed
            ? 'its signature does not match this bot (signed for another bot, or before the secret was rotated)'
            : 'it is not a well-formed HS256 JWT';
    throw errors.unauthorized(`Invalid x-user-key: ${why}. ${USER_KEY_HELP}.`);
  }
  const id = payload.id;
  if (typeof id !== 'string' || !USER_ID.test(id)) {
    throw errors.unauthorized(
      `Invalid x-user-key: its payload must be {"id": "<user id>"} with an id of 1 to 100 letters, digits or _ - . : @. ${USER_KEY_HELP}.`,
    );
  }
  return id;
}

/** What a chat user id may be made of (site backends choose their own with verified identity). */
export const USER_ID = /^[A-Za-z0-9_\-.:@]{1,100}$/;

/** `x-parley-signature` of a webhook body: `t=<unix s>,v1=<hex HMAC-SHA256("<t>.<body>", secret)>`. */
export function webhookSignature(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** Constant-time equality of two strings (different lengths are unequal, without early exit on content). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  if (x.length !== y.length) {
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}
