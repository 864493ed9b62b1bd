import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRow, botRow, workspaceRow } from '../../../testkit/src/server/rows.js';
import { decodeCursor, toPage } from '../http/pagination.js';
import type { TagFilter } from '../http/tag-filter.js';
import { newId } from '../ids.js';
import { type AuditRow, auditRepo } from '../modules/audit/repo.js';
import { BOT_SORT_COLUMNS, type BotListQuery, type BotRow, botsRepo } from '../modules/bots/repo.js';
import { type ChatUserRow, chatRepo, type MessageRow } from '../modules/chat/repo.js';
import { newUserRow } from '../modules/chat/users.js';
import { identityRepo, type MemberRow, type TokenRow, type WorkspaceRow } from '../modules/identity/repo.js';
import { type IntegrationRow, integrationsRepo } from '../modules/integrations/repo.js';
import { type LogRow, logsRepo } from '../modules/logs/repo.js';
import { type Db, isUniqueViolation, migrate } from './database.js';
import { migrationProvider } from './migrations/index.js';

const BASE = Date.UTC(2026, 0, 1);
/** An ISO timestamp `seconds` after the suite's base time. */
const at = (seconds: number) => new Date(BASE + seconds * 1000).toISOString();

let sequence = 0;
/** A short unique suffix, so tests sharing one database never collide. */
const unique = () =>
  `${Date.now().toString(36)}${(sequence++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

function member(
  workspaceId: string,
  accountId: string | null,
  overrides: Partial<MemberRow> = {},
): MemberRow {
  return {
    id: newId('member'),
    workspace_id: workspaceId,
    account_id: accountId,
    email: `m-${unique()}@example.com`,
    role: 'developer',
    created_at: at(0),
    updated_at: at(0),
    ...overrides,
  };
}

function token(overrides: Partial<TokenRow> = {}): TokenRow {
  return {
    id: newId('tok'),
    kind: 'pat',
    hash: `hash-${unique()}`,
    account_id: null,
    bot_id: null,
    integration_id: null,
    note: '',
    created_at: at(0),
    last_used_at: null,
    expires_at: null,
    revoked_at: null,
    ...overrides,
  };
}

function integrationRow(workspaceId: string, createdBy: string, name: string): IntegrationRow {
  return {
    id: newId('int'),
    workspace_id: workspaceId,
    name,
    description: '',
    created_by: createdBy,
    created_at: at(0),
    updated_at: at(0),
  };
}

function logLine(botId: string, timestamp: string, overrides: Partial<LogRow> = {}): LogRow {
  return {
    id: newId('log'),
    bot_id: botId,
    timestamp,
    level: 'info',
    message: 'GET /v1/admin/bots 200',
    request_id: `req_${unique()}`,
    operation_id: 'bots.listBots',
    method: 'GET',
    path: '/v1/admin/bots',
    status_code: 200,
    duration_ms: 12.5,
    ...overrides,
  };
}

/** Answers the error `promise` rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the query to fail');
}

/** Code-unit order, which is the order of ASCII text under a binary (C) collation and SQLite's default. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The contract every database adapter meets, run through the real repositories and migrations.
 * `open` opens the same database each time it is called (a second call checks migrations are idempotent).
 * @example runRepositorySuite('SQLite', () => openDatabase({ dataDir }))
 */
export function runRepositorySuite(name: string, open: () => Promise<Db>): void {
  describe(`repository suite: ${name}`, () => {
    let db: Db;
    const identity = () => identityRepo(db.kysely);
    const bots = () => botsRepo(db.kysely);

    /** A fresh account and a workspace it owns. */
    async function tenant() {
      const owner = accountRow();
      await identity().insertAccount(owner);
      const ws = workspaceRow(owner.id);
      await identity().insertWorkspace(ws);
      return { owner, ws };
    }

    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => {
      await db?.close();
    });

    describe('database', () => {
      it('answers ping', async () => {
        await expect(db.ping()).resolves.toBeUndefined();
      });

      it('runs every migration once and records it', async () => {
        const expected = Object.keys(await migrationProvider.getMigrations()).sort();
        const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
          db.kysely,
        );
        expect(rows.rows.map((r) => r.name)).toEqual(expected);
      });

      it('migrates again without error or change (migrations are idempotent)', async () => {
        const owner = accountRow();
        await identity().insertAccount(owner);
        await migrate(db.kysely);
        const again = await open();
        try {
          expect(await identityRepo(again.kysely).accountById(owner.id)).toEqual(owner);
          const rows = await sql<{ n: number | string }>`select count(*) as n from kysely_migration`.execute(
            again.kysely,
          );
          expect(Number(rows.rows[0]?.n)).toBe(Object.keys(await migrationProvider.getMigrations()).length);
        } finally {
          await again.close();
        }
      });

      it('rolls a failed transaction back', async () => {
        const row = accountRow();
        const error = await rejection(
          db.kysely.transaction().execute(async (tx) => {
            await identityRepo(tx).insertAccount(row);
            throw new Error('abort');
          }),
        );
        expect((error as Error).message).toBe('abort');
        expect(await identity().accountById(row.id)).toBeUndefined();
      });

      it('enforces foreign keys, and does not report their violation as a unique violation', async () => {
        const error = await rejection(identity().insertWorkspace(workspaceRow('user_does_not_exist')));
        expect(isUniqueViolation(error)).toBe(false);
        expect(await identity().workspaceById('user_does_not_exist')).toBeUndefined();
      });

      it('stores and reads meta values', async () => {
        const key = `k-${unique()}`;
        expect(await identity().getMeta(key)).toBeUndefined();
        await identity().insertMeta(key, '{"a":1}');
        expect(await identity().getMeta(key)).toEqual({ value: '{"a":1}' });
        expect(isUniqueViolation(await rejection(identity().insertMeta(key, 'again')))).toBe(true);
      });
    });

    describe('accounts and tokens', () => {
      it('inserts an account and reads it back by id and by e-mail in any case', async () => {
        const row = accountRow({ email: `ada-${unique()}@example.com`, display_name: 'Ada' });
        await identity().insertAccount(row);
        expect(await identity().accountById(row.id)).toEqual(row);
        expect(await identity().accountByEmail(row.email.toUpperCase())).toEqual(row);
        expect(await identity().accountById('user_missing')).toBeUndefined();
      });

      it('rejects a second account with the same e-mail as a unique violation', async () => {
        const email = `dup-${unique()}@example.com`;
        await identity().insertAccount(accountRow({ email }));
        const error = await rejection(identity().insertAccount(accountRow({ email })));
        expect(isUniqueViolation(error)).toBe(true);
      });

      it('rejects a duplicate primary key as a unique violation', async () => {
        const row = accountRow();
        await identity().insertAccount(row);
        const error = await rejection(
          identity().insertAccount({ ...row, email: `other-${unique()}@example.com` }),
        );
        expect(isUniqueViolation(error)).toBe(true);
      });

      it('updates an account', async () => {
        const row = accountRow();
        await identity().insertAccount(row);
        await identity().updateAccount(row.id, { display_name: 'Renamed', updated_at: at(60) });
        expect(await identity().accountById(row.id)).toEqual({
          ...row,
          display_name: 'Renamed',
          updated_at: at(60),
        });
      });

      it('finds a token by its hash, and nothing for an unknown hash', async () => {
        const owner = accountRow();
        await identity().insertAccount(owner);
        const row = token({ account_id: owner.id, note: 'laptop', expires_at: at(3600) });
        await identity().insertToken(row);
        expect(await identity().tokenByHash(row.hash)).toEqual(row);
        expect(await identity().tokenById(row.id)).toEqual(row);
        expect(await identity().tokenByHash('hash-unknown')).toBeUndefined();
        expect(isUniqueViolation(await rejection(identity().insertToken(token({ hash: row.hash }))))).toBe(
          true,
        );
      });

      it('revokes a token once and leaves it out of the live tokens of its owner', async () => {
        const owner = accountRow();
        await identity().insertAccount(owner);
        const kept = token({ account_id: owner.id });
        const revoked = token({ account_id: owner.id });
        await identity().insertToken(kept);
        await identity().insertToken(revoked);
        const first = await identity().revokeToken(revoked.id, at(10));
        expect(Number(first.numUpdatedRows)).toBe(1);
        const second = await identity().revokeToken(revoked.id, at(20));
        expect(Number(second.numUpdatedRows)).toBe(0);
        expect((await identity().tokenByHash(revoked.hash))?.revoked_at).toBe(at(10));
        const live = await identity().tokensOf({ account_id: owner.id }, 'pat');
        expect(live.map((t) => t.id)).toEqual([kept.id]);
      });

      it('touches a token only when its last use is older than the threshold', async () => {
        const owner = accountRow();
        await identity().insertAccount(owner);
        const row = token({ account_id: owner.id });
        await identity().insertToken(row);
        await identity().touchToken(row.id, at(100), at(40));
        expect((await identity().tokenById(row.id))?.last_used_at).toBe(at(100));
        await identity().touchToken(row.id, at(120), at(60));
        expect((await identity().tokenById(row.id))?.last_used_at).toBe(at(100));
        await identity().touchToken(row.id, at(200), at(150));
        expect((await identity().tokenById(row.id))?.last_used_at).toBe(at(200));
      });
    });

    describe('workspaces and members', () => {
      it('reads a member with its account display name, by id, account and e-mail', async () => {
        const { owner, ws } = await tenant();
        const row = member(ws.id, owner.id, { email: owner.email, role: 'owner' });
        await identity().insertMember(row);
        const view = { ...row, display_name: owner.display_name, invitation_expires_at: null };
        expect(await identity().memberById(ws.id, row.id)).toEqual(view);
        expect(await identity().memberOfAccount(ws.id, owner.id)).toEqual(view);
        expect(await identity().memberByEmail(ws.id, owner.email.toUpperCase())).toEqual(row);
        expect(await identity().countMembers(ws.id)).toBe(1);
        expect(await identity().countOwners(ws.id)).toBe(1);
      });

      it('rejects the same e-mail twice in one workspace as a unique violation', async () => {
        const { ws } = await tenant();
        const email = `twice-${unique()}@example.com`;
        await identity().insertMember(member(ws.id, null, { email }));
        const error = await rejection(identity().insertMember(member(ws.id, null, { email })));
        expect(isUniqueViolation(error)).toBe(true);
      });

      it('lists the workspaces of an account by creation time with keyset pagination', async () => {
        const owner = accountRow();
        await identity().insertAccount(owner);
        const created: WorkspaceRow[] = [];
        for (let i = 0; i < 5; i++) {
          const ws = workspaceRow(owner.id, { name: `W${i}`, created_at: at(Math.floor(i / 2)) });
          await identity().insertWorkspace(ws);
          await identity().insertMember(member(ws.id, owner.id, { role: i === 0 ? 'owner' : 'viewer' }));
          created.push(ws);
        }
        const expected = [...created].sort(
          (a, b) => compare(a.created_at, b.created_at) || compare(a.id, b.id),
        );
        const seen: string[] = [];
        let nextToken: string | undefined;
        do {
          const rows = await identity().workspacesOf(owner.id, 2, decodeCursor(nextToken, 'createdAt:asc'));
          const page = toPage(rows, 2, 'createdAt:asc', (r) => [r.created_at, r.id]);
          seen.push(...page.items.map((w) => w.id));
          nextToken = page.nextToken;
        } while (nextToken);
        expect(seen).toEqual(expected.map((w) => w.id));
        const first = await identity().workspacesOf(owner.id, 10, undefined);
        expect(first.find((w) => w.id === created[0]?.id)?.role).toBe('owner');
      });

      it('updates a member role and links an invited member to an account', async () => {
        const { ws } = await tenant();
        const invited = member(ws.id, null, { role: 'viewer' });
        await identity().insertMember(invited);
        const joiner = accountRow();
        await identity().insertAccount(joiner);
        await identity().updateMemberRole(invited.id, 'manager', at(5));
        await identity().linkMember(invited.id, joiner.id, at(6));
        expect(await identity().memberById(ws.id, invited.id)).toEqual({
          ...invited,
          role: 'manager',
          account_id: joiner.id,
          updated_at: at(6),
          display_name: joiner.display_name,
          invitation_expires_at: null,
        });
      });

      it('deleting a workspace removes its members, invitations, bots, tags, keys, integrations, audit and logs', async () => {
        const { owner, ws } = await tenant();
        const other = await tenant();
        const m = member(ws.id, owner.id, { role: 'owner' });
        await identity().insertMember(m);
        await identity().insertInvitation({
          id: newId('inv'),
          member_id: m.id,
          code_hash: `code-${unique()}`,
          expires_at: at(999),
          created_at: at(0),
        });
        const doomed = botRow(ws.id);
        await bots().insert(doomed, { team: 'sales' });
        const survivor = botRow(other.ws.id);
        await bots().insert(survivor, { team: 'sales' });
        const botKey = token({ kind: 'bak', bot_id: doomed.id });
        const survivorKey = token({ kind: 'bak', bot_id: survivor.id });
        const pat = token({ account_id: owner.id });
        await identity().insertToken(botKey);
        await identity().insertToken(survivorKey);
        await identity().insertToken(pat);
        const integration = integrationRow(ws.id, owner.id, 'crm');
        await integrationsRepo(db.kysely).insert(integration);
        await integrationsRepo(db.kysely).install(doomed.id, integration.id, at(1));
        const integrationKey = token({ kind: 'iak', bot_id: doomed.id, integration_id: integration.id });
        await identity().insertToken(integrationKey);
        await auditRepo(db.kysely).insert({
          id: newId('audit'),
          workspace_id: ws.id,
          recorded_at: at(0),
          account_id: owner.id,
          account_email: owner.email,
          action: 'CREATE_BOT',
          resource_id: doomed.id,
          resource_name: doomed.name,
          value: null,
        });
        await logsRepo(db.kysely).insert(logLine(doomed.id, at(0)));
        await logsRepo(db.kysely).insert(logLine(survivor.id, at(0)));

        await identity().deleteWorkspace(ws.id, new Date().toISOString());

        const k = db.kysely;
        expect(await identity().workspaceById(ws.id)).toBeUndefined();
        expect(await k.selectFrom('members').selectAll().where('workspace_id', '=', ws.id).execute()).toEqual(
          [],
        );
        expect(await k.selectFrom('invitations').selectAll().where('member_id', '=', m.id).execute()).toEqual(
          [],
        );
        expect(await bots().byId(ws.id, doomed.id)).toBeUndefined();
        expect(await k.selectFrom('bot_tags').selectAll().where('bot_id', '=', doomed.id).execute()).toEqual(
          [],
        );
        expect(await identity().tokenById(botKey.id)).toBeUndefined();
        expect(await identity().tokenById(integrationKey.id)).toBeUndefined();
        expect(await integrationsRepo(k).byId(ws.id, integration.id)).toBeUndefined();
        expect(await integrationsRepo(k).installation(doomed.id, integration.id)).toBeUndefined();
        expect(await auditRepo(k).list(ws.id, 10, undefined)).toEqual([]);
        expect(await logsRepo(k).list({ botId: doomed.id, limit: 10 })).toEqual([]);

        expect(await identity().accountById(owner.id)).toEqual(owner);
        expect(await identity().tokenById(pat.id)).toEqual(pat);
        expect(await identity().workspaceById(other.ws.id)).toEqual(other.ws);
        expect(await bots().byId(other.ws.id, survivor.id)).toEqual(survivor);
        expect((await bots().tagsOf([survivor.id])).get(survivor.id)).toEqual({ team: 'sales' });
        expect(await identity().tokenById(survivorKey.id)).toEqual(survivorKey);
        expect(await logsRepo(k).list({ botId: survivor.id, limit: 10 })).toHaveLength(1);
      });
    });

    describe('bots', () => {
      it('inserts a bot with its tags and reads both back, only in its own workspace', async () => {
        const { ws } = await tenant();
        const other = await tenant();
        const row = botRow(ws.id, { name: 'Helper', dev: 1, webhook_url: 'https://hooks.example.com/x' });
        await bots().insert(row, { team: 'sales', env: 'prod' });
        expect(await bots().byId(ws.id, row.id)).toEqual(row);
        expect(await bots().byId(other.ws.id, row.id)).toBeUndefined();
        const tags = await bots().tagsOf([row.id, 'no-such-bot']);
        expect(tags.get(row.id)).toEqual({ env: 'prod', team: 'sales' });
        expect(tags.get('no-such-bot')).toEqual({});
        expect(await bots().count(ws.id)).toBe(1);
        expect(await identity().countBots(ws.id)).toBe(1);
      });

      it('updates a bot, sets and removes tags', async () => {
        const { ws } = await tenant();
        const row = botRow(ws.id);
        await bots().insert(row, { a: '1', b: '2' });
        await bots().update(row.id, { name: 'Renamed', status: 'disabled', updated_at: at(30) });
        await bots().setTags(row.id, { a: 'one', b: null, c: '3' });
        expect(await bots().byId(ws.id, row.id)).toEqual({
          ...row,
          name: 'Renamed',
          status: 'disabled',
          updated_at: at(30),
        });
        expect((await bots().tagsOf([row.id])).get(row.id)).toEqual({ a: 'one', c: '3' });
      });

      it('deleting a bot removes its tags, keys, installations and request log', async () => {
        const { owner, ws } = await tenant();
        const row = botRow(ws.id);
        await bots().insert(row, { team: 'ops' });
        const key = token({ kind: 'bak', bot_id: row.id });
        await identity().insertToken(key);
        const integration = integrationRow(ws.id, owner.id, 'helpdesk');
        await integrationsRepo(db.kysely).insert(integration);
        await integrationsRepo(db.kysely).install(row.id, integration.id, at(1));
        await logsRepo(db.kysely).insert(logLine(row.id, at(2)));

        await bots().delete(row.id, new Date().toISOString());

        expect(await bots().byId(ws.id, row.id)).toBeUndefined();
        expect((await bots().tagsOf([row.id])).get(row.id)).toEqual({});
        expect(await identity().tokenById(key.id)).toBeUndefined();
        expect(await integrationsRepo(db.kysely).installation(row.id, integration.id)).toBeUndefined();
        expect(await logsRepo(db.kysely).list({ botId: row.id, limit: 5 })).toEqual([]);
        expect(await integrationsRepo(db.kysely).byId(ws.id, integration.id)).toEqual(integration);
      });

      describe('keyset pagination of the list', () => {
        let workspaceId: string;
        let all: BotRow[];

        beforeAll(async () => {
          const { ws } = await tenant();
          workspaceId = ws.id;
          all = [];
          // 45 bots with ties in every sort column, so the id tiebreaker matters on every page.
          for (let i = 0; i < 45; i++) {
            const row = botRow(ws.id, {
              name: `bot-${String((i * 7) % 15).padStart(2, '0')}`,
              created_at: at(Math.floor(i / 3)),
              updated_at: at(100 + ((i * 11) % 9)),
              deployed_at: at(0),
            });
            await bots().insert(row, {});
            all.push(row);
          }
          const { ws: noise } = await tenant();
          for (let i = 0; i < 5; i++) await bots().insert(botRow(noise.id, { name: `bot-0${i}` }), {});
        });

        for (const sortField of Object.keys(BOT_SORT_COLUMNS) as BotListQuery['sortField'][]) {
          for (const sortDirection of ['asc', 'desc'] as const) {
            it(`visits every bot exactly once in ${sortField} ${sortDirection} order, 7 a page`, async () => {
              const column = BOT_SORT_COLUMNS[sortField];
              const sort = `${sortField}:${sortDirection}`;
              const sign = sortDirection === 'asc' ? 1 : -1;
              const expected = [...all]
                .sort((a, b) => sign * (compare(a[column], b[column]) || compare(a.id, b.id)))
                .map((r) => r.id);

              const seen: string[] = [];
              const sizes: number[] = [];
              let nextToken: string | undefined;
              do {
                const rows = await bots().list({
                  workspaceId,
                  sortField,
                  sortDirection,
                  limit: 7,
                  after: decodeCursor(nextToken, sort),
                });
                const page = toPage(rows, 7, sort, (r) => [r[column], r.id]);
                seen.push(...page.items.map((r) => r.id));
                sizes.push(page.items.length);
                nextToken = page.nextToken;
              } while (nextToken && sizes.length < 20);

              expect(sizes).toEqual([7, 7, 7, 7, 7, 7, 3]);
              expect(new Set(seen).size).toBe(45);
              expect(seen).toEqual(expected);
            });
          }
        }

        it('ends without a nextToken when the last page is exactly full', async () => {
          const rows = await bots().list({
            workspaceId,
            sortField: 'name',
            sortDirection: 'asc',
            limit: 45,
          });
          expect(toPage(rows, 45, 'name:asc', (r) => [r.name, r.id])).toEqual({ items: rows });
        });
      });

      describe('filters of the list', () => {
        let workspaceId: string;
        const ids: Record<string, string> = {};

        const names = async (query: Partial<BotListQuery>) => {
          const rows = await bots().list({
            workspaceId,
            sortField: 'name',
            sortDirection: 'asc',
            limit: 100,
            ...query,
          });
          return rows.map((r) => r.name);
        };

        beforeAll(async () => {
          const { ws } = await tenant();
          workspaceId = ws.id;
          const fixtures: Array<[string, Record<string, string>, number]> = [
            ['a-sales-prod', { team: 'sales', env: 'prod' }, 0],
            ['b-ops-staging', { team: 'ops', env: 'staging' }, 1],
            ['c-sales', { team: 'sales' }, 0],
            ['d-untagged', {}, 1],
            ['e-support-prod-legacy', { team: 'support', env: 'prod', legacy: 'yes' }, 0],
            ['f-100%', {}, 0],
            ['g-100 percent', {}, 0],
            ['h-a_b', {}, 0],
            ['i-axb', {}, 0],
            ['j-back\\slash', {}, 0],
            ['k-UPPER Case', {}, 0],
          ];
          for (const [botName, tags, dev] of fixtures) {
            const row = botRow(ws.id, { name: botName, dev });
            await bots().insert(row, tags);
            ids[botName] = row.id;
          }
          const { ws: noise } = await tenant();
          await bots().insert(botRow(noise.id, { name: 'z-other-tenant-sales' }), { team: 'sales' });
        });

        const tagCases: Array<[string, TagFilter, string[]]> = [
          [
            'any of several values',
            { team: { anyOf: ['sales', 'ops'] } },
            ['a-sales-prod', 'b-ops-staging', 'c-sales'],
          ],
          [
            'none of the values (bots without the tag included)',
            { env: { noneOf: ['prod'] } },
            [
              'b-ops-staging',
              'c-sales',
              'd-untagged',
              'f-100%',
              'g-100 percent',
              'h-a_b',
              'i-axb',
              'j-back\\slash',
              'k-UPPER Case',
            ],
          ],
          [
            'the tag exists',
            { env: { exists: true } },
            ['a-sales-prod', 'b-ops-staging', 'e-support-prod-legacy'],
          ],
          [
            'the tag does not exist',
            { team: { exists: false } },
            ['d-untagged', 'f-100%', 'g-100 percent', 'h-a_b', 'i-axb', 'j-back\\slash', 'k-UPPER Case'],
          ],
          [
            'conditions on two keys, AND-ed',
            { team: { anyOf: ['sales'] }, env: { noneOf: ['prod'] } },
            ['c-sales'],
          ],
          [
            'two conditions on one key, AND-ed',
            { env: { exists: true, noneOf: ['prod'] } },
            ['b-ops-staging'],
          ],
          ['a value no bot has', { team: { anyOf: ['finance'] } }, []],
          ['a key no bot has', { color: { exists: true } }, []],
          ['several values to exclude', { team: { noneOf: ['sales', 'ops', 'support'], exists: true } }, []],
        ];
        for (const [what, tags, expected] of tagCases) {
          it(`filters by tags: ${what}`, async () => {
            expect(await names({ tags })).toEqual(expected);
          });
        }

        it('filters by dev', async () => {
          expect(await names({ dev: true })).toEqual(['b-ops-staging', 'd-untagged']);
          expect(await names({ dev: false })).toHaveLength(9);
        });

        it('matches the name case-insensitively', async () => {
          expect(await names({ nameContains: 'upper c' })).toEqual(['k-UPPER Case']);
          expect(await names({ nameContains: 'SALES' })).toEqual(['a-sales-prod', 'c-sales']);
        });

        it('treats % in the name filter literally', async () => {
          expect(await names({ nameContains: '100%' })).toEqual(['f-100%']);
          expect(await names({ nameContains: '%' })).toEqual(['f-100%']);
        });

        it('treats _ in the name filter literally', async () => {
          expect(await names({ nameContains: 'a_b' })).toEqual(['h-a_b']);
          expect(await names({ nameContains: '_' })).toEqual(['h-a_b']);
        });

        it('treats a backslash in the name filter literally', async () => {
          expect(await names({ nameContains: '\\' })).toEqual(['j-back\\slash']);
        });

        it('combines the name, tag and dev filters', async () => {
          expect(await names({ nameContains: 'sales', tags: { env: { exists: true } } })).toEqual([
            'a-sales-prod',
          ]);
          expect(await names({ dev: true, tags: { team: { exists: true } } })).toEqual(['b-ops-staging']);
          expect(ids['a-sales-prod']).toBeDefined();
        });
      });
    });

    describe('integrations', () => {
      it('inserts, lists by id and rejects a second integration of the same name in a workspace', async () => {
        const { owner, ws } = await tenant();
        const rows = [0, 1, 2].map((i) => ({
          id: newId('int'),
          workspace_id: ws.id,
          name: `integration-${i}`,
          description: `number ${i}`,
          created_by: owner.id,
          created_at: at(i),
          updated_at: at(i),
        }));
        for (const r of rows) await integrationsRepo(db.kysely).insert(r);
        expect(await integrationsRepo(db.kysely).byId(ws.id, rows[1]?.id ?? '')).toEqual(rows[1]);
        const first = await integrationsRepo(db.kysely).list(ws.id, 2, undefined);
        expect(first).toEqual(rows);
        const page = toPage(first, 2, 'id:asc', (r) => [r.id, r.id]);
        const rest = await integrationsRepo(db.kysely).list(ws.id, 2, decodeCursor(page.nextToken, 'id:asc'));
        expect(rest).toEqual([rows[2]]);
        const error = await rejection(
          integrationsRepo(db.kysely).insert({ ...(rows[0] as (typeof rows)[0]), id: newId('int') }),
        );
        expect(isUniqueViolation(error)).toBe(true);
      });

      it('installs on a bot once, lists installations and uninstalls', async () => {
        const { owner, ws } = await tenant();
        const row = botRow(ws.id);
        await bots().insert(row, {});
        const integration = integrationRow(ws.id, owner.id, 'slack');
        const repo = integrationsRepo(db.kysely);
        await repo.insert(integration);
        await repo.install(row.id, integration.id, at(7));
        expect(isUniqueViolation(await rejection(repo.install(row.id, integration.id, at(8))))).toBe(true);
        expect(await repo.installationsOf(row.id)).toEqual([
          { bot_id: row.id, integration_id: integration.id, installed_at: at(7), name: 'slack' },
        ]);
        expect(await identity().installation(row.id, integration.id)).toEqual({
          bot_id: row.id,
          integration_id: integration.id,
          workspace_id: ws.id,
        });
        await repo.uninstall(row.id, integration.id);
        expect(await repo.installation(row.id, integration.id)).toBeUndefined();
        await repo.install(row.id, integration.id, at(9));
        await repo.delete(integration.id);
        expect(await repo.installationsOf(row.id)).toEqual([]);
      });
    });

    describe('audit trail', () => {
      it('lists records newest first, page by page, only for its workspace', async () => {
        const { owner, ws } = await tenant();
        const other = await tenant();
        const rows: AuditRow[] = [];
        for (let i = 0; i < 5; i++) {
          const row: AuditRow = {
            id: newId('audit'),
            workspace_id: ws.id,
            recorded_at: at(i),
            account_id: owner.id,
            account_email: owner.email,
            action: 'UPDATE_BOT',
            resource_id: `bot-${i}`,
            resource_name: `Bot ${i}`,
            value: i === 0 ? '{"name":"x"}' : null,
          };
          await auditRepo(db.kysely).insert(row);
          rows.push(row);
          await auditRepo(db.kysely).insert({ ...row, id: newId('audit'), workspace_id: other.ws.id });
        }
        const newestFirst = [...rows].reverse();
        const first = await auditRepo(db.kysely).list(ws.id, 3, undefined);
        const page = toPage(first, 3, 'id:desc', (r) => [r.id, r.id]);
        expect(page.items).toEqual(newestFirst.slice(0, 3));
        const second = await auditRepo(db.kysely).list(ws.id, 3, decodeCursor(page.nextToken, 'id:desc'));
        expect(second).toEqual(newestFirst.slice(3));
      });
    });

    describe('request logs', () => {
      it('lists a bot log newest first with time and level filters', async () => {
        const { ws } = await tenant();
        const row = botRow(ws.id);
        await bots().insert(row, {});
        const lines = [0, 1, 2, 3].map((i) =>
          logLine(row.id, at(i * 60), { level: i === 2 ? 'error' : 'info', duration_ms: 1234.5 + i }),
        );
        for (const l of lines) await logsRepo(db.kysely).insert(l);
        const repo = logsRepo(db.kysely);
        expect(await repo.list({ botId: row.id, limit: 10 })).toEqual([...lines].reverse());
        expect((await repo.list({ botId: row.id, limit: 10, level: 'error' })).map((l) => l.id)).toEqual([
          lines[2]?.id,
        ]);
        expect(
          (await repo.list({ botId: row.id, limit: 10, from: at(60), to: at(180) })).map((l) => l.id),
        ).toEqual([lines[2]?.id, lines[1]?.id]);
      });

      it('prunes lines older than the cutoff and keeps the rest', async () => {
        const { ws } = await tenant();
        const row = botRow(ws.id);
        await bots().insert(row, {});
        const old = logLine(row.id, '2000-01-01T00:00:00.000Z');
        const older = logLine(row.id, '1999-06-01T00:00:00.000Z');
        const recent = logLine(row.id, '2000-01-02T00:00:00.000Z');
        for (const l of [old, older, recent]) await logsRepo(db.kysely).insert(l);
        const result = await logsRepo(db.kysely).pruneBefore('2000-01-01T12:00:00.000Z');
        expect(Number(result.numDeletedRows)).toBe(2);
        expect(await logsRepo(db.kysely).list({ botId: row.id, limit: 10 })).toEqual([recent]);
        const again = await logsRepo(db.kysely).pruneBefore('2000-01-01T12:00:00.000Z');
        expect(Number(again.numDeletedRows)).toBe(0);
      });
    });

    describe('chat', () => {
      const chat = () => chatRepo(db.kysely);
      const chatUser = (botId: string, id: string): ChatUserRow => newUserRow(botId, id, {}, at(0));
      const message = (
        botId: string,
        conversationId: string,
        userId: string,
        seconds: number,
      ): MessageRow => ({
        id: newId('msg'),
        bot_id: botId,
        conversation_id: conversationId,
        user_id: userId,
        is_bot: 0,
        payload: '{"type":"text","text":"hi"}',
        metadata: null,
        feedback: null,
        reply_to: null,
        created_at: at(seconds),
        answer: null,
        details: null,
      });
      const signal = (botId: string, conversationId: string, createdAt: string, adminOnly = 0) => ({
        bot_id: botId,
        conversation_id: conversationId,
        type: 'message_created',
        data: '{}',
        admin_only: adminOnly,
        created_at: createdAt,
      });
      async function twoBots() {
        const { ws } = await tenant();
        const one = botRow(ws.id);
        const two = botRow(ws.id);
        await bots().insert(one, {});
        await bots().insert(two, {});
        return { one, two };
      }

      it('keys users and conversations per bot: the same id in two bots is two records', async () => {
        const { one, two } = await twoBots();
        expect(await chat().insertUserIfMissing(chatUser(one.id, 'site-user'))).toBe(true);
        expect(await chat().insertUserIfMissing(chatUser(one.id, 'site-user'))).toBe(false);
        expect(await chat().insertUserIfMissing({ ...chatUser(two.id, 'site-user'), name: 'Two' })).toBe(
          true,
        );
        expect((await chat().user(one.id, 'site-user'))?.name).toBeNull();
        expect((await chat().user(two.id, 'site-user'))?.name).toBe('Two');
        const conv = {
          bot_id: one.id,
          id: 'c1',
          created_by: 'site-user',
          created_at: at(0),
          updated_at: at(0),
        };
        expect(await chat().insertConversationIfMissing(conv)).toBe(true);
        expect(await chat().insertConversationIfMissing(conv)).toBe(false);
        expect(await chat().conversation(two.id, 'c1')).toBeUndefined();
      });

      it("lists one participant's conversations newest-updated first, by keyset pages", async () => {
        const { one } = await twoBots();
        await chat().insertUserIfMissing(chatUser(one.id, 'u1'));
        for (let i = 0; i < 5; i++) {
          const id = `conv-${i}`;
          await chat().insertConversationIfMissing({
            bot_id: one.id,
            id,
            created_by: 'u1',
            created_at: at(i),
            updated_at: at(i),
          });
          if (i !== 2) await chat().addParticipant(one.id, id, 'u1', at(i));
        }
        const sort = 'updatedAt:desc';
        const first = await chat().listConversations({
          botId: one.id,
          userId: 'u1',
          limit: 2,
          after: undefined,
        });
        const page = toPage(first, 2, sort, (r) => [r.updated_at, r.id]);
        expect(page.items.map((c) => c.id)).toEqual(['conv-4', 'conv-3']);
        const second = await chat().listConversations({
          botId: one.id,
          userId: 'u1',
          limit: 2,
          after: decodeCursor(page.nextToken, sort),
        });
        expect(second.map((c) => c.id)).toEqual(['conv-1', 'conv-0']);
        const all = await chat().listConversations({
          botId: one.id,
          userId: undefined,
          limit: 10,
          after: undefined,
        });
        expect(all).toHaveLength(5);
      });

      it('deletes a user with its messages and participations, and the conversations only it was in', async () => {
        const { one } = await twoBots();
        for (const u of ['gone', 'stays']) await chat().insertUserIfMissing(chatUser(one.id, u));
        for (const c of ['alone', 'shared']) {
          await chat().insertConversationIfMissing({
            bot_id: one.id,
            id: c,
            created_by: 'gone',
            created_at: at(0),
            updated_at: at(0),
          });
          await chat().addParticipant(one.id, c, 'gone', at(0));
        }
        await chat().addParticipant(one.id, 'shared', 'stays', at(1));
        const mine = message(one.id, 'shared', 'gone', 1);
        const theirs = message(one.id, 'shared', 'stays', 2);
        await chat().insertMessages([mine, theirs, message(one.id, 'alone', 'gone', 3)]);
        expect(await chat().deleteUser(one.id, 'gone')).toEqual(['alone']);
        expect(await chat().user(one.id, 'gone')).toBeUndefined();
        expect(await chat().conversation(one.id, 'alone')).toBeUndefined();
        expect(await chat().message(one.id, mine.id)).toBeUndefined();
        expect(await chat().message(one.id, theirs.id)).toEqual(theirs);
        expect(await chat().isParticipant(one.id, 'shared', 'gone')).toBe(false);
      });

      it('hands out growing signal cursors, never reused after pruning, and filters admin-only signals', async () => {
        const { one, two } = await twoBots();
        const c1 = await chat().insertSignal(signal(one.id, 'c', '2000-01-01T00:00:00.000Z'));
        const c2 = await chat().insertSignal(signal(one.id, 'c', '2000-01-01T00:00:01.000Z', 1));
        const c3 = await chat().insertSignal(signal(two.id, 'c', at(0)));
        expect(c2).toBeGreaterThan(c1);
        expect(c3).toBeGreaterThan(c2);
        expect(await chat().lastCursor(one.id, 'c')).toBe(c2);
        expect(await chat().lastCursor(one.id, 'none')).toBe(0);
        const q = { botId: one.id, conversationId: 'c', after: 0, limit: 10 };
        expect((await chat().signalsAfter({ ...q, admin: false })).map((r) => r.cursor)).toEqual([c1]);
        expect((await chat().signalsAfter({ ...q, admin: true })).map((r) => r.cursor)).toEqual([c1, c2]);
        expect((await chat().signalsAfter({ ...q, admin: true, after: c1 })).map((r) => r.cursor)).toEqual([
          c2,
        ]);
        expect(await chat().pruneSignals('2000-01-02T00:00:00.000Z')).toBe(2);
        const c4 = await chat().insertSignal(signal(one.id, 'c', at(1)));
        expect(c4).toBeGreaterThan(c3);
        expect((await chat().signalsAfter({ ...q, admin: true })).map((r) => r.cursor)).toEqual([c4]);
      });

      it("keeps a bot's secrets until replaced, and deletes its chat data with the bot", async () => {
        const { one } = await twoBots();
        const secrets = {
          bot_id: one.id,
          user_key_secret: 'a',
          webhook_secret: 'b',
          created_at: at(0),
          rotated_at: null,
        };
        await chat().insertSecretsIfMissing(secrets);
        await chat().insertSecretsIfMissing({ ...secrets, user_key_secret: 'other' });
        expect(await chat().secrets(one.id)).toEqual(secrets);
        await chat().replaceSecrets({
          ...secrets,
          user_key_secret: 'c',
          webhook_secret: 'd',
          rotated_at: at(5),
        });
        expect(await chat().secrets(one.id)).toMatchObject({
          user_key_secret: 'c',
          webhook_secret: 'd',
          rotated_at: at(5),
        });
        await chat().insertUserIfMissing(chatUser(one.id, 'u'));
        await chat().insertSignal(signal(one.id, 'c', at(0)));
        await bots().delete(one.id, at(9));
        expect(await chat().secrets(one.id)).toBeUndefined();
        expect(await chat().user(one.id, 'u')).toBeUndefined();
        expect(await chat().lastCursor(one.id, 'c')).toBe(0);
      });
    });
  });
}
