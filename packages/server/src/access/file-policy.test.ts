import type { Role } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import {
  canFile,
  FILE_ACTIONS,
  FILE_POLICY,
  type FileAction,
  type FileActor,
  type FileActorKey,
  type FileFacts,
  type FileRule,
  fileRule,
} from './file-policy.js';

const ROLES: Role[] = ['viewer', 'billing', 'developer', 'manager', 'administrator', 'owner'];
const ACTOR_KEYS: FileActorKey[] = ['public', 'bot', 'integration', ...ROLES];
const ACTIONS: FileAction[] = ['create', 'read', 'list', 'search', 'update', 'delete', 'download'];
const READS: FileAction[] = ['read', 'list', 'search', 'download'];

/**
 * The spec's "File permissions" table and rule, written independently of FILE_POLICY:
 * - public: downloads the content of `public_content` files, nothing else;
 * - bot: everything on the files of its bot, whoever created them;
 * - integration: creates files; reads, lists, searches and downloads the files it created or those shared
 *   with the `integrations` policy; updates and deletes only the files it created;
 * - viewer: reads, lists, searches and downloads; never creates, updates or deletes;
 * - billing: nothing;
 * - developer, manager, administrator, owner: everything, whoever created the file, whatever its policies.
 */
function expectedRule(actor: FileActorKey, action: FileAction): FileRule {
  switch (actor) {
    case 'public':
      return action === 'download' ? 'publicContent' : false;
    case 'bot':
      return true;
    case 'integration':
      if (action === 'create') return true;
      if (action === 'update' || action === 'delete') return 'created';
      return 'createdOrShared';
    case 'viewer':
      return READS.includes(action);
    case 'billing':
      return false;
    case 'developer':
    case 'manager':
    case 'administrator':
    case 'owner':
      return true;
  }
}

const INTEGRATION_ID = 'int_self';
const BOT_ID = 'bot-1';

function actorOf(key: FileActorKey): FileActor {
  if (key === 'public') return { kind: 'public' };
  if (key === 'bot') return { kind: 'bot', botId: BOT_ID };
  if (key === 'integration') return { kind: 'integration', integrationId: INTEGRATION_ID, botId: BOT_ID };
  return { kind: 'member', role: key, accountId: 'user_member' };
}

type Creator = 'owner bot' | 'integration itself' | 'other integration' | 'user';
const CREATORS: Creator[] = ['owner bot', 'integration itself', 'other integration', 'user'];
const POLICIES: ReadonlyArray<readonly string[]> = [[], ['integrations'], ['public_content']];

function factsOf(creator: Creator, accessPolicies: readonly string[]): FileFacts {
  switch (creator) {
    case 'owner bot':
      return { ownerType: 'bot', ownerId: BOT_ID, accessPolicies };
    case 'integration itself':
      return { ownerType: 'integration', ownerId: INTEGRATION_ID, accessPolicies };
    case 'other integration':
      return { ownerType: 'integration', ownerId: 'int_other', accessPolicies };
    case 'user':
      return { ownerType: 'user', ownerId: 'user_creator', accessPolicies };
  }
}

/** Whether `actor` may `action` a file of `creator` with `policies`, from the rules above (not from the table). */
function expectedCan(
  actor: FileActorKey,
  action: FileAction,
  creator: Creator,
  policies: readonly string[],
): boolean {
  switch (actor) {
    case 'public':
      return action === 'download' && policies.includes('public_content');
    case 'integration': {
      const own = creator === 'integration itself';
      if (action === 'create') return true;
      if (action === 'update' || action === 'delete') return own;
      return own || policies.includes('integrations');
    }
    case 'viewer':
      return READS.includes(action);
    case 'billing':
      return false;
    default:
      return true;
  }
}

const label = (policies: readonly string[]) => (policies.length === 0 ? 'no policy' : policies.join('+'));

describe('FILE_POLICY', () => {
  it('has exactly one row per actor and one rule per action, and FILE_ACTIONS lists every action', () => {
    expect([...FILE_ACTIONS].sort()).toEqual([...ACTIONS].sort());
    expect(Object.keys(FILE_POLICY).sort()).toEqual([...ACTOR_KEYS].sort());
    for (const key of ACTOR_KEYS) expect(Object.keys(FILE_POLICY[key]).sort()).toEqual([...ACTIONS].sort());
  });

  const cells = ACTOR_KEYS.flatMap((actor) =>
    ACTIONS.map((action) => ({ actor, action, rule: expectedRule(actor, action) })),
  );
  for (const { actor, action, rule } of cells) {
    it(`${actor} × ${action} → ${rule}`, () => {
      expect(FILE_POLICY[actor][action]).toBe(rule);
      expect(fileRule(actorOf(actor), action)).toBe(rule);
    });
  }
});

describe('canFile', () => {
  const cases = ACTOR_KEYS.flatMap((actor) =>
    ACTIONS.flatMap((action) =>
      CREATORS.flatMap((creator) =>
        POLICIES.map((policies) => ({
          actor,
          action,
          creator,
          policies,
          policy: label(policies),
          allowed: expectedCan(actor, action, creator, policies),
        })),
      ),
    ),
  );
  for (const { actor, action, creator, policies, policy, allowed } of cases) {
    it(`${actor} ${allowed ? 'may' : 'may not'} ${action} a file created by ${creator} with ${policy}`, () => {
      expect(canFile(actorOf(actor), action, factsOf(creator, policies))).toBe(allowed);
    });
  }

  it('shares with integrations only through the integrations policy, and public_content with public only', () => {
    const both = factsOf('user', ['integrations', 'public_content']);
    expect(canFile(actorOf('integration'), 'read', both)).toBe(true);
    expect(canFile(actorOf('integration'), 'update', both)).toBe(false);
    expect(canFile(actorOf('public'), 'download', both)).toBe(true);
    expect(canFile(actorOf('public'), 'read', both)).toBe(false);
    expect(canFile(actorOf('integration'), 'read', factsOf('other integration', ['public_content']))).toBe(
      false,
    );
  });

  it('counts a file as created by the integration only when its owner is that integration', () => {
    const integration = actorOf('integration');
    // The integration's id as the id of another kind of owner does not make it the creator.
    for (const ownerType of ['bot', 'user'] as const) {
      const facts: FileFacts = { ownerType, ownerId: INTEGRATION_ID, accessPolicies: [] };
      for (const action of ACTIONS.filter((a) => a !== 'create'))
        expect(canFile(integration, action, facts)).toBe(false);
    }
    const ownerless: FileFacts = { ownerType: 'integration', ownerId: null, accessPolicies: [] };
    expect(canFile(integration, 'read', ownerless)).toBe(false);
    expect(canFile(integration, 'delete', ownerless)).toBe(false);
  });

  it('without file facts, allows only the unconditional rules', () => {
    for (const actor of ACTOR_KEYS) {
      for (const action of ACTIONS) {
        const rule = expectedRule(actor, action);
        expect(canFile(actorOf(actor), action)).toBe(rule === true);
      }
    }
  });

  it('judges a member by its role, whatever its account', () => {
    for (const role of ROLES) {
      const stranger: FileActor = { kind: 'member', role, accountId: 'user_someone_else' };
      const creator: FileActor = { kind: 'member', role, accountId: 'user_creator' };
      const facts = factsOf('user', []);
      for (const action of ACTIONS)
        expect(canFile(stranger, action, facts)).toBe(canFile(creator, action, facts));
    }
  });
});
