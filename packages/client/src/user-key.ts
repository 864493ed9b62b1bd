/**
 * Signs a chat user key for verified identity, as a site's backend does: an HS256 JWT of `{ id: userId }`
 * signed with the bot's chat user key secret (`client.getBotChat({ id: botId })`). Keep the secret on your
 * server; hand the key to the browser, which sends it as `userKey`. Uses WebCrypto (Node 20+, browsers).
 * @example const userKey = await signUserKey(secret, 'customer-42', { expiresInSeconds: 3600 });
 */
export async function signUserKey(
  secret: string,
  userId: string,
  options: { expiresInSeconds?: number | undefined } = {},
): Promise<string> {
  const encoder = new TextEncoder();
  const b64url = (bytes: Uint8Array) => {
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  };
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = { id: userId, iat: now };
  if (options.expiresInSeconds !== undefined) payload.exp = now + options.expiresInSeconds;
  const head = b64url(encoder.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
  const body = b64url(encoder.encode(JSON.stringify(payload)));
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${head}.${body}`)));
  return `${head}.${body}.${b64url(mac)}`;
}
