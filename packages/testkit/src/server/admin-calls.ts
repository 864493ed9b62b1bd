import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type Call, createTestApp, type TestApp } from './harness.js';
import { badFields, expectError, type WireError } from './wire.js';

/** A request of an Admin API test: method, URL and an optional JSON body. */
export type AdminCall = (
  method: Call['method'],
  url: string,
  body?: unknown,
) => Promise<LightMyRequestResponse>;

/**
 * Calls `t`'s app with a token (a member's, a bot key…) in a workspace, the bootstrap one unless named.
 * @example expectError(await caller(t, t.botKey)('GET', '/v1/admin/workspace-members'), 403, 'Forbidden');
 */
export function caller(t: TestApp, token: string, workspaceId: string = t.workspaceId): AdminCall {
  return (method, url, body) => t.call({ method, url, token, workspaceId, body });
}

/** Calls `t`'s app with a token and no workspace: the routes of the token's own account. */
export function accountCaller(t: TestApp, token: string): AdminCall {
  return (method, url, body) => t.call({ method, url, token, body });
}

/** Redeems an invitation code: anonymously (with a `password`), or signed in with `token`. */
export const acceptInvitation = (
  t: TestApp,
  body: { code?: string | undefined; displayName?: string; password?: string },
  token?: string,
) =>
  t.call({ method: 'POST', url: '/v1/admin/account/invitations/accept', body, ...(token ? { token } : {}) });

/** A name no other test uses: `prefix-` and random letters. */
export const uniqueName = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/** An e-mail no other test uses. */
export const uniqueEmail = (prefix: string) => `${uniqueName(prefix)}@example.com`;

/** Asserts a 400 of this type that names `field`, and answers the error body. */
export function expectInvalid(
  res: LightMyRequestResponse,
  type: 'InvalidPayload' | 'InvalidQuery',
  field: string,
): WireError {
  const body = expectError(res, 400, type);
  expect(badFields(body)).toContain(field);
  return body;
}

/** Creates a bot through the Admin API (as `call`, the owner by default) and answers its id. */
export async function newBot(t: TestApp, name: string, call: AdminCall = t.asOwner): Promise<string> {
  const res = await call('POST', '/v1/admin/bots', { name });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { bot: { id: string } }).bot.id;
}

/** Runs `use` with a fresh test app of its own (a clean workspace, a controlled clock…), closed after. */
export async function withTestApp(
  use: (app: TestApp) => Promise<void>,
  options?: Parameters<typeof createTestApp>[0],
): Promise<void> {
  const app = await createTestApp(options);
  try {
    await use(app);
  } finally {
    await app.close();
  }
}
