import type { Role } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { thrownApiError } from '../../../testkit/src/server/wire.js';
import type { ApiError } from '../errors/errors.js';
import { ACTIONS, type Action, type ActorKey, AGENT, authorize, can, POLICY, type Rule } from './policy.js';
import type { Actor } from './principal.js';

const ROLES: Role[] = ['viewer', 'billing', 'developer', 'manager', 'administrator', 'owner'];
const ACTOR_KEYS: ActorKey[] = [...ROLES, 'bot', 'integration'];

/**
 * The role rules, written independently of the table in policy.ts:
 * - viewer reads everything a workspace shows, except the audit trail;
 * - billing sees only the workspace, its usage and its members;
 * - developer reads like a viewer, creates and updates bots, keys, webchat, integrations and Q&A entries, takes
 *   conversations over and answers them (human handoff), reveals and rotates chat secrets (a secret is no plain read: viewers may not), deletes only
 *   the bots and integrations it created, and never touches workspace settings, members or the audit trail;
 * - manager is a developer who also reads the audit trail;
 * - administrator may do everything except delete the workspace; owner everything;
 * - bot and integration keys have no right on the Admin API.
 */
function expectedRule(actor: ActorKey, action: Action): Rule {
  const isRead = action.endsWith('.read');
  switch (actor) {
    case 'owner':
      return true;
    case 'administrator':
      return action !== 'workspace.delete';
    case 'viewer':
      return isRead && action !== 'audit.read';
    case 'billing':
      return action === 'workspace.read' || action === 'usage.read' || action === 'member.read';
    case 'developer':
    case 'manager': {
      if (action === 'audit.read') return actor === 'manager';
      if (isRead) return true;
      if (action.startsWith('workspace.') || action.startsWith('member.')) return false;
      if (action === 'bot.delete' || action === 'integration.delete') return 'own';
      return true;
    }
    case 'bot':
    case 'integration':
      return false;
  }
}

function actorOf(key: ActorKey, accountId = 'user_creator'): Actor {
  if (key === 'bot') return { kind: 'bot', botId: 'bot-1', workspaceId: 'wkspace_1' };
  if (key === 'integration')
    return { kind: 'integration', integrationId: 'int_1', botId: 'bot-1', workspaceId: 'wkspace_1' };
  return { kind: 'member', accountId, email: `${key}@example.com`, role: key, workspaceId: 'wkspace_1' };
}

const forbidden = (fn: () => unknown): ApiError => thrownApiError(fn, 'authorize to throw');

describe('POLICY table', () => {
  it('has a row for every role and both key kinds, and a cell for every action', () => {
    expect(Object.keys(POLICY).sort()).toEqual([...ACTOR_KEYS].sort());
    for (const key of ACTOR_KEYS) expect(Object.keys(POLICY[key]).sort()).toEqual([...ACTIONS].sort());
  });

  it('names the actions the expectations are written for', () => {
    expect(ACTIONS).toHaveLength(32);
    expect(new Set(ACTIONS).size).toBe(ACTIONS.length);
  });

  for (const key of ACTOR_KEYS) {
    for (const action of ACTIONS) {
      const expected = expectedRule(key, action);
      it(`${key} ${expected === true ? 'may' : expected === 'own' ? 'may on its own resources' : 'may not'} ${action}`, () => {
        expect(POLICY[key][action]).toBe(expected);
      });
    }
  }
});

describe('can', () => {
  it('agrees with the table for every cell, deciding "own" cells by the creator', () => {
    for (const key of ACTOR_KEYS) {
      for (const action of ACTIONS) {
        const actor = actorOf(key, 'user_me');
        const rule = expectedRule(key, action);
        const mine = { createdBy: 'user_me' };
        const theirs = { createdBy: 'user_other' };
        expect(can(actor, action, mine), `${key} ${action} own`).toBe(rule !== false);
        expect(can(actor, action, theirs), `${key} ${action} other`).toBe(rule === true);
      }
    }
  });

  it('lets a developer delete a bot it created but not one created by someone else', () => {
    const developer = actorOf('developer', 'user_dev');
    expect(can(developer, 'bot.delete', { createdBy: 'user_dev' })).toBe(true);
    expect(can(developer, 'bot.delete', { createdBy: 'user_someone_else' })).toBe(false);
  });

  it('denies an "own" action when the resource or its creator is unknown', () => {
    const developer = actorOf('developer', 'user_dev');
    expect(can(developer, 'bot.delete')).toBe(false);
    expect(can(developer, 'bot.delete', {})).toBe(false);
  });

  it('lets a manager delete only its own integrations, and an administrator any', () => {
    expect(can(actorOf('manager', 'user_m'), 'integration.delete', { createdBy: 'user_m' })).toBe(true);
    expect(can(actorOf('manager', 'user_m'), 'integration.delete', { createdBy: 'user_x' })).toBe(false);
    expect(can(actorOf('administrator', 'user_a'), 'integration.delete', { createdBy: 'user_x' })).toBe(true);
  });

  it('gives a bot key no right, not even on a resource whose creator id equals the bot id', () => {
    const bot = actorOf('bot');
    for (const action of ACTIONS) expect(can(bot, action, { createdBy: 'bot-1' })).toBe(false);
  });
});

describe('authorize', () => {
  it('returns quietly when the actor may act', () => {
    expect(authorize(actorOf('owner'), 'workspace.delete')).toBeUndefined();
    expect(authorize(actorOf('developer', 'user_d'), 'bot.delete', { createdBy: 'user_d' })).toBeUndefined();
  });

  it('throws 403 Forbidden naming the role and the action', () => {
    const error = forbidden(() => authorize(actorOf('viewer'), 'bot.create'));
    expect(error.type).toBe('Forbidden');
    expect(error.code).toBe(403);
    expect(error.message).toBe('Permission denied: role "viewer" may not perform "bot.create"');
  });

  it('says when an action is allowed only on resources the caller created', () => {
    const error = forbidden(() =>
      authorize(actorOf('developer', 'user_d'), 'bot.delete', { createdBy: 'user_other' }),
    );
    expect(error.code).toBe(403);
    expect(error.type).toBe('Forbidden');
    expect(error.message).toBe(
      'Permission denied: role "developer" may not perform "bot.delete" on resources created by others',
    );
  });

  it('tells bot and integration keys that the Admin API needs a personal access token', () => {
    const bot = forbidden(() => authorize(actorOf('bot'), 'bot.read'));
    expect(bot.code).toBe(403);
    expect(bot.message).toBe(
      'Permission denied: a bot access key (the Admin API needs a personal access token) may not perform "bot.read"',
    );
    const integration = forbidden(() => authorize(actorOf('integration'), 'workspace.read'));
    expect(integration.type).toBe('Forbidden');
    expect(integration.message).toBe(
      'Permission denied: an integration key (the Admin API needs a personal access token) may not perform "workspace.read"',
    );
  });
});

describe('the agent permission set (human handoff)', () => {
  const settings = ACTIONS.filter(
    (a) => !a.endsWith('.read') && !a.startsWith('conversation.') && a !== 'chatSecret.reveal',
  );

  it('answers conversations and touches no setting of a bot, workspace or member', () => {
    expect([...AGENT].sort()).toEqual(['conversation.handoff', 'conversation.read']);
    for (const action of AGENT) expect(settings).not.toContain(action);
  });

  it('is held whole by developer, manager, administrator and owner; a viewer only reads; billing and keys hold none', () => {
    const holders = ACTOR_KEYS.filter((key) => AGENT.every((a) => can(actorOf(key), a)));
    expect(holders).toEqual(['developer', 'manager', 'administrator', 'owner']);
    expect(AGENT.filter((a) => can(actorOf('viewer'), a))).toEqual(['conversation.read']);
    for (const key of ['billing', 'bot', 'integration'] as const)
      expect(AGENT.filter((a) => can(actorOf(key), a))).toEqual([]);
    const err = forbidden(() => authorize(actorOf('viewer'), 'conversation.handoff'));
    expect([err.code, err.type]).toEqual([403, 'Forbidden']);
  });
});
