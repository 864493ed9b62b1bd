import { describe, expect, it } from 'vitest';
import { botRow } from '../../../../testkit/src/server/rows.js';
import { decodeCursor, toPage } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { type AuditRow, auditRepo } from '../../modules/audit/repo.js';
import { integrationsRepo } from '../../modules/integrations/repo.js';
import { logsRepo } from '../../modules/logs/repo.js';
import { isUniqueViolation } from '../database.js';
import { at, integrationRow, logLine, rejection, type SuiteRepos } from './rows.suite.js';

/** The repository suite on integrations, the audit trail and the request logs. */
export function recordRepositoryCases({ kysely, identity, bots, tenant }: SuiteRepos): void {
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
      for (const r of rows) await integrationsRepo(kysely()).insert(r);
      expect(await integrationsRepo(kysely()).byId(ws.id, rows[1]?.id ?? '')).toEqual(rows[1]);
      const first = await integrationsRepo(kysely()).list(ws.id, 2, undefined);
      expect(first).toEqual(rows);
      const page = toPage(first, 2, 'id:asc', (r) => [r.id, r.id]);
      const rest = await integrationsRepo(kysely()).list(ws.id, 2, decodeCursor(page.nextToken, 'id:asc'));
      expect(rest).toEqual([rows[2]]);
      const error = await rejection(
        integrationsRepo(kysely()).insert({ ...(rows[0] as (typeof rows)[0]), id: newId('int') }),
      );
      expect(isUniqueViolation(error)).toBe(true);
    });

    it('installs on a bot once, lists installations and uninstalls', async () => {
      const { owner, ws } = await tenant();
      const row = botRow(ws.id);
      await bots().insert(row, {});
      const integration = integrationRow(ws.id, owner.id, 'slack');
      const repo = integrationsRepo(kysely());
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
        await auditRepo(kysely()).insert(row);
        rows.push(row);
        await auditRepo(kysely()).insert({ ...row, id: newId('audit'), workspace_id: other.ws.id });
      }
      const newestFirst = [...rows].reverse();
      const first = await auditRepo(kysely()).list(ws.id, 3, undefined);
      const page = toPage(first, 3, 'id:desc', (r) => [r.id, r.id]);
      expect(page.items).toEqual(newestFirst.slice(0, 3));
      const second = await auditRepo(kysely()).list(ws.id, 3, decodeCursor(page.nextToken, 'id:desc'));
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
      for (const l of lines) await logsRepo(kysely()).insert(l);
      const repo = logsRepo(kysely());
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
      for (const l of [old, older, recent]) await logsRepo(kysely()).insert(l);
      const result = await logsRepo(kysely()).pruneBefore('2000-01-01T12:00:00.000Z');
      expect(Number(result.numDeletedRows)).toBe(2);
      expect(await logsRepo(kysely()).list({ botId: row.id, limit: 10 })).toEqual([recent]);
      const again = await logsRepo(kysely()).pruneBefore('2000-01-01T12:00:00.000Z');
      expect(Number(again.numDeletedRows)).toBe(0);
    });
  });
}
