// The rows and helpers the parts of the repository suite share (see ../repositories.suite.ts).
import { accountRow, workspaceRow } from '../../../../testkit/src/server/rows.js';
import { newId } from '../../ids.js';
import { botsRepo } from '../../modules/bots/repo.js';
import { identityRepo, type MemberRow, type TokenRow } from '../../modules/identity/repo.js';
import type { IntegrationRow } from '../../modules/integrations/repo.js';
import type { LogRow } from '../../modules/logs/repo.js';
import type { Db } from '../database.js';

const BASE = Date.UTC(2026, 0, 1);
/** An ISO timestamp `seconds` after the suite's base time. */
export const at = (seconds: number) => new Date(BASE + seconds * 1000).toISOString();

let sequence = 0;
/** A short unique suffix, so tests sharing one database never collide. */
export const unique = () =>
  `${Date.now().toString(36)}${(sequence++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export function member(
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

export function token(overrides: Partial<TokenRow> = {}): TokenRow {
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

export function integrationRow(workspaceId: string, createdBy: string, name: string): IntegrationRow {
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

export function logLine(botId: string, timestamp: string, overrides: Partial<LogRow> = {}): LogRow {
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
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the query to fail');
}

/** Code-unit order, which is the order of ASCII text under a binary (C) collation and SQLite's default. */
export const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The identity and bot repositories on the suite's database (open while the tests run), and a new tenant. */
export function suiteRepos(db: () => Db) {
  const identity = () => identityRepo(db().kysely);
  const bots = () => botsRepo(db().kysely);

  /** A fresh account and a workspace it owns. */
  async function tenant() {
    const owner = accountRow();
    await identity().insertAccount(owner);
    const ws = workspaceRow(owner.id);
    await identity().insertWorkspace(ws);
    return { owner, ws };
  }

  return { kysely: () => db().kysely, identity, bots, tenant };
}

/** What each part of the repository suite runs on. */
export type SuiteRepos = ReturnType<typeof suiteRepos>;
