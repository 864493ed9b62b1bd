import { beforeAll, describe, expect, it } from 'vitest';
import { botRow } from '../../../../testkit/src/server/rows.js';
import { decodeCursor, toPage } from '../../http/pagination.js';
import type { TagFilter } from '../../http/tag-filter.js';
import { BOT_SORT_COLUMNS, type BotListQuery, type BotRow } from '../../modules/bots/repo.js';
import { integrationsRepo } from '../../modules/integrations/repo.js';
import { logsRepo } from '../../modules/logs/repo.js';
import { at, compare, integrationRow, logLine, type SuiteRepos, token } from './rows.suite.js';

/** The repository suite on bots: their rows, keys and tags, and their list's pages, order and filters. */
export function botRepositoryCases({ kysely, identity, bots, tenant }: SuiteRepos): void {
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
      await integrationsRepo(kysely()).insert(integration);
      await integrationsRepo(kysely()).install(row.id, integration.id, at(1));
      await logsRepo(kysely()).insert(logLine(row.id, at(2)));

      await bots().delete(row.id, new Date().toISOString());

      expect(await bots().byId(ws.id, row.id)).toBeUndefined();
      expect((await bots().tagsOf([row.id])).get(row.id)).toEqual({});
      expect(await identity().tokenById(key.id)).toBeUndefined();
      expect(await integrationsRepo(kysely()).installation(row.id, integration.id)).toBeUndefined();
      expect(await logsRepo(kysely()).list({ botId: row.id, limit: 5 })).toEqual([]);
      expect(await integrationsRepo(kysely()).byId(ws.id, integration.id)).toEqual(integration);
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
        ['two conditions on one key, AND-ed', { env: { exists: true, noneOf: ['prod'] } }, ['b-ops-staging']],
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
}
