import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Outcome of checking a signed URL. */
export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/** Query parameters a signed URL carries besides its own. */
export interface SignedParams {
  /** Expiry, milliseconds since the epoch. */
  expires: string;
  /** Random per-URL value: two URLs signed in the same millisecond still differ. */
  nonce: string;
  signature: string;
}

function canonical(path: string, params: Record<string, string>): string {
  const keys = Object.keys(params).sort();
  return `${path}\n${keys.map((k) => `${k}=${params[k]}`).join('&')}`;
}

/** Signs and checks capability URLs (see urlSigner). */
export interface UrlSigner {
  /** Parameters to append to `path` (with `params`) so that it is valid for `ttlMs`. */
  sign(path: string, params: Record<string, string>, ttlMs: number): SignedParams;
  /** A signature that never expires, for permanent URLs (public content); always the same for the same input. */
  permanent(path: string, params: Record<string, string>): string;
  /** Checks a permanent signature. */
  checkPermanent(path: string, params: Record<string, string>, signature: string): boolean;
  /** Checks a URL's query: `invalid` when the signature does not match, `expired` when it did but is past due. */
  check(path: string, query: Record<string, string | undefined>): SignatureCheck;
}

/**
 * Signs and checks capability URLs (upload URLs, private download URLs) with HMAC-SHA256 over the path and
 * every parameter, so a URL cannot be moved to another file, extended or altered.
 * @example const q = signer.sign('/v1/files/f1/content', { v: '3' }, 60_000); signer.check('/v1/files/f1/content', { v: '3', ...q })
 */
export function urlSigner(secret: Buffer, clock: () => Date = () => new Date()): UrlSigner {
  if (secret.length < 32) throw new Error('URL signing secret must be at least 32 bytes');
  const mac = (text: string) => createHmac('sha256', secret).update(text).digest('base64url');
  return {
    sign(path, params, ttlMs) {
      const expires = String(clock().getTime() + ttlMs);
      const nonce = randomBytes(9).toString('base64url');
      const signature = mac(canonical(path, { ...params, expires, nonce }));
      return { expires, nonce, signature };
    },
    permanent(path, params) {
      return mac(`permanent\n${canonical(path, params)}`);
    },
    checkPermanent(path, params, signature) {
      const expected = Buffer.from(mac(`permanent\n${canonical(path, params)}`));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
    check(path, query) {
      const { signature, ...rest } = query;
      if (!signature || !rest.expires || !rest.nonce) return 'invalid';
      const params = Object.fromEntries(
        Object.entries(rest).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
      const expected = Buffer.from(mac(canonical(path, params)));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
      const expires = Number(rest.expires);
      if (!Number.isFinite(expires) || expires <= clock().getTime()) return 'expired';
      return 'valid';
    },
  };
}
