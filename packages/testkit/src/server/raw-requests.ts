import type { Call, TestApp } from './harness.js';

/**
 * A request to `t`'s app with exactly the headers given (no token or workspace added), for tests that control
 * Authorization and x-workspace-id to the letter.
 * @example await rawRequest(t, '/v1/admin/bots', workspaceHeaders(t, 'Basic x'));
 */
export function rawRequest(
  t: TestApp,
  url: string,
  headers: Record<string, string>,
  method: Call['method'] = 'GET',
) {
  return t.app.inject({ method, url, headers });
}

/** The headers of a request in the bootstrap workspace with this Authorization header, or none when undefined. */
export function workspaceHeaders(t: TestApp, authorization?: string): Record<string, string> {
  return { ...(authorization !== undefined ? { authorization } : {}), 'x-workspace-id': t.workspaceId };
}
