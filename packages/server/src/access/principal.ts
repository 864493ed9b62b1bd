import type { Role } from '@parley/protocol';

/**
 * Who is calling, resolved once per request from its token or its session cookie. `tokenId` is the id of the
 * credential (a token's, or for a signed-in person the session's, also in `sessionId`).
 */
export type Principal =
  | { kind: 'account'; accountId: string; email: string; tokenId: string; sessionId?: string }
  | { kind: 'bot'; botId: string; workspaceId: string; tokenId: string }
  | { kind: 'integration'; integrationId: string; botId: string; workspaceId: string; tokenId: string };

/** A principal acting inside one workspace, with the role it holds there (accounts only). */
export type Actor =
  | { kind: 'member'; accountId: string; email: string; role: Role; workspaceId: string }
  | { kind: 'bot'; botId: string; workspaceId: string }
  | { kind: 'integration'; integrationId: string; botId: string; workspaceId: string };
