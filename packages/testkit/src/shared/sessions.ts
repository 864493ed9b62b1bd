/**
 * Signs `email` in with `password` at `apiUrl` as the Console's Sign in page does (POST
 * /v1/admin/account/sessions): answers the session cookie as a `cookie` header carries it (`parley_session=…`).
 * Throws unless the answer is 201 with the cookie.
 */
export async function signInCookie(apiUrl: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${apiUrl}/v1/admin/account/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
  if (res.status !== 201 || !cookie?.startsWith('parley_session='))
    throw new Error(`sign-in of ${email} answered ${res.status}: ${await res.text()}`);
  return cookie;
}
