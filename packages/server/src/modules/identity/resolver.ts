import type { Role } from '@parley/protocol';
import type { Kysely } from 'kysely';
import type { Principal } from '../../access/principal.js';
import { hashToken, sameHash, type TokenKind } from '../../access/tokens.js';
import { WatchedCache } from '../../db/change-watch.js';
import type { Database } from '../../db/schema.js';
import type { AuthResolver, ReadBot } from '../../http/context.js';
import type { IdentityContext } from './context.js';
import { type IdentityRepo, identityRepo, type TokenRow } from './repo.js';
import { sessionRepo } from './session-repo.js';
import { liveSession } from './sessions.js';

/** How the holder of a live token of each kind is found: the principal it stands for, if it still exists. */
const PRINCIPALS: Record<
  TokenKind,
  (repo: IdentityRepo, row: TokenRow, readBot?: ReadBot | Promise<ReadBot>) => Promise<Principal | undefined>
> = {
  async pat(repo, row) {
    const account = row.account_id ? await repo.accountById(row.account_id) : undefined;
    return account && { kind: 'account', accountId: account.id, email: account.email, tokenId: row.id };
  },
  async bak(repo, row, readBot) {
    const read = await readBot;
    if (read && row.bot_id === read.id)
      return { kind: 'bot', botId: read.id, workspaceId: read.workspaceId, tokenId: row.id };
    const bot = row.bot_id ? await repo.botForKey(row.bot_id) : undefined;
    return bot && { kind: 'bot', botId: bot.id, workspaceId: bot.workspace_id, tokenId: row.id };
  },
  async iak(repo, row) {
    const inst =
      row.bot_id && row.integration_id ? await repo.installation(row.bot_id, row.integration_id) : undefined;
    return (
      inst && {
        kind: 'integration',
        integrationId: inst.integration_id,
        botId: inst.bot_id,
        workspaceId: inst.workspace_id,
        tokenId: row.id,
      }
    );
  },
};

/**
 * What a token row kept by the resolver depends on. Every authenticated request reads its token's row, so on
 * SQLite the resolver keeps the rows it read by hash until a token changes (see WatchedCache): a revocation,
 * an expiry moved or a deletion, by this process or any other, is read by the next request; a use recorded
 * in `last_used_at` is not a change. The expiry is checked against the time on every use.
 */
const TOKEN_TABLES = [{ name: 'tokens', ignoredColumns: ['last_used_at'] }] as const;

/** The live token of a value: known, not revoked, not expired at `nowMs`. */
async function liveToken(
  db: Kysely<Database>,
  tokens: WatchedCache<TokenRow>,
  value: string,
  nowMs: number,
): Promise<TokenRow | undefined> {
  const hash = hashToken(value);
  const row = await tokens.get(db, hash, () => identityRepo(db).tokenByHash(hash));
  if (!row || !sameHash(row.hash, hash) || row.revoked_at !== null) return undefined;
  if (row.expires_at !== null && Date.parse(row.expires_at) <= nowMs) return undefined;
  return row;
}

/** Tokens to principals (recording their use), and principals to the actors they are inside a workspace. */
export function identityResolver(ctx: Pick<IdentityContext, 'db' | 'clock' | 'config'>): AuthResolver {
  const { db, clock } = ctx;
  const tokens = new WatchedCache<TokenRow>(TOKEN_TABLES);
  return {
    async resolveToken(value, readBot) {
      const at = clock();
      const row = await liveToken(db, tokens, value, at.getTime());
      const holder =
        row && Object.hasOwn(PRINCIPALS, row.kind) ? PRINCIPALS[row.kind as TokenKind] : undefined;
      const principal = row && holder ? await holder(identityRepo(db), row, readBot) : undefined;
      if (row && principal) {
        // Record use at most once a minute per token, so reads stay reads: no statement at all while the row
        // read says it was recorded within the minute (the update's own condition covers a race).
        const minuteAgo = new Date(at.getTime() - 60_000).toISOString();
        if (row.last_used_at === null || row.last_used_at < minuteAgo) {
          const usedAt = at.toISOString();
          await identityRepo(db).touchToken(row.id, usedAt, minuteAgo);
          // The kept row (if it is) says so too, as a read would.
          row.last_used_at = usedAt;
        }
      }
      return principal;
    },

    async resolveSession(value) {
      const at = clock();
      const row = await liveSession(db, value, at.getTime(), ctx.config.sessions.idleMs);
      const account = row ? await identityRepo(db).accountById(row.account_id) : undefined;
      if (!row || !account) return undefined;
      // Seen at most once a minute per session, so reads stay reads (the idle limit counts in hours).
      const minuteAgo = new Date(at.getTime() - 60_000).toISOString();
      await sessionRepo(db).touchSession(row.id, at.toISOString(), minuteAgo);
      return {
        kind: 'account',
        accountId: account.id,
        email: account.email,
        tokenId: row.id,
        sessionId: row.id,
      };
    },

    async resolveActor(principal, workspaceId) {
      if (principal.kind === 'account') {
        const m = await identityRepo(db).memberOfAccount(workspaceId, principal.accountId);
        if (!m) return undefined;
        const { accountId, email } = principal;
        return { kind: 'member', accountId, email, role: m.role as Role, workspaceId };
      }
      if (principal.workspaceId !== workspaceId) return undefined;
      return principal.kind === 'bot'
        ? { kind: 'bot', botId: principal.botId, workspaceId }
        : {
            kind: 'integration',
            integrationId: principal.integrationId,
            botId: principal.botId,
            workspaceId,
          };
    },
  };
}
