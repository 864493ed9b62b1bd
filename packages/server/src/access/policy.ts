import type { Role } from '@parley/protocol';
import { errors } from '../errors/errors.js';
import type { Actor } from './principal.js';

/** Every action the permission policy rules on. */
export const ACTIONS = [
  'workspace.read',
  'workspace.update',
  'workspace.delete',
  'usage.read',
  'member.read',
  'member.add',
  'member.update',
  'member.remove',
  'audit.read',
  'bot.read',
  'bot.create',
  'bot.update',
  'bot.delete',
  'botKey.read',
  'botKey.create',
  'botKey.revoke',
  'webchat.read',
  'webchat.update',
  'log.read',
  'integration.read',
  'integration.create',
  'integration.delete',
  'integration.install',
  'integrationKey.read',
  'integrationKey.create',
  'integrationKey.revoke',
  // Chat API secrets of a bot (user key signing secret, webhook secret): secrets, so not a plain read.
  'chatSecret.reveal',
  'chatSecret.rotate',
  // A bot's conversations and transcripts (visitors' messages, retrieval details, feedback): a read, so
  // every role that sees bots (viewer up) reads them; billing sees no bot, bot and integration keys nothing.
  'conversation.read',
  // A bot's Q&A entries (modules/qa): viewers read them, developers and above write them.
  'qa.read',
  'qa.write',
  // Human handoff: take over, assign, hand back and resolve a conversation, and reply in it as oneself.
  // The `agent` permission set (AGENT below): developers and above; viewers only read conversations.
  'conversation.handoff',
] as const;
/** An action of the permission policy. */
export type Action = (typeof ACTIONS)[number];

/** A rule: always, never, or only on resources the actor created. */
export type Rule = true | false | 'own';

/** The kinds of actor the table has a column for. */
export type ActorKey = Role | 'bot' | 'integration';

const READS: Action[] = [
  'workspace.read',
  'usage.read',
  'member.read',
  'bot.read',
  'botKey.read',
  'webchat.read',
  'log.read',
  'integration.read',
  'integrationKey.read',
  'conversation.read',
  'qa.read',
];

/**
 * The `agent` permission set (human handoff): read a bot's conversations, take them over, assign, reply, hand
 * back and resolve them; nothing of a bot's settings, keys or knowledge. The specification's six roles are
 * fixed, so `agent` is no seventh role: it is a set each role holds whole or not at all, developer, manager,
 * administrator and owner holding it, viewer only its read (`conversation.read`), billing none of it.
 */
export const AGENT: readonly Action[] = ['conversation.read', 'conversation.handoff'];

function row(rules: Partial<Record<Action, Rule>>): Record<Action, Rule> {
  return Object.fromEntries(ACTIONS.map((a) => [a, rules[a] ?? false])) as Record<Action, Rule>;
}
const all = (value: Rule, actions: readonly Action[]) => Object.fromEntries(actions.map((a) => [a, value]));

const developer: Partial<Record<Action, Rule>> = {
  ...all(true, READS),
  'bot.create': true,
  'bot.update': true,
  'bot.delete': 'own',
  'botKey.create': true,
  'botKey.revoke': true,
  'webchat.update': true,
  'integration.create': true,
  'integration.delete': 'own',
  'integration.install': true,
  'integrationKey.create': true,
  'integrationKey.revoke': true,
  'chatSecret.reveal': true,
  'chatSecret.rotate': true,
  'qa.write': true,
  ...all(true, AGENT),
};

/**
 * The permission policy as data: actor × action → rule. Every route asks `authorize` and nothing else.
 * viewer reads only; billing sees the workspace, its usage and members but no bot; developer creates and
 * updates bots and deletes its own; manager adds audit records; administrator adds members, settings and
 * every bot; owner everything. Bot and integration keys have no Admin API rights.
 */
export const POLICY: Readonly<Record<ActorKey, Readonly<Record<Action, Rule>>>> = {
  viewer: row(all(true, READS)),
  billing: row({ 'workspace.read': true, 'usage.read': true, 'member.read': true }),
  developer: row(developer),
  manager: row({ ...developer, 'audit.read': true }),
  administrator: row({
    ...all(true, ACTIONS),
    'workspace.delete': false,
  }),
  owner: row(all(true, ACTIONS)),
  bot: row({}),
  integration: row({}),
};

function actorKey(actor: Actor): ActorKey {
  return actor.kind === 'member' ? actor.role : actor.kind;
}

/** What an action is done to, when ownership matters. */
export interface ResourceRef {
  createdBy?: string;
}

/** True when `actor` may do `action` on `resource`. */
export function can(actor: Actor, action: Action, resource?: ResourceRef): boolean {
  const rule = POLICY[actorKey(actor)][action];
  if (rule === 'own') {
    return (
      actor.kind === 'member' && resource?.createdBy !== undefined && resource.createdBy === actor.accountId
    );
  }
  return rule;
}

/** Throws 403 Forbidden, naming the action and the caller's role, unless `can` allows it. */
export function authorize(actor: Actor, action: Action, resource?: ResourceRef): void {
  if (can(actor, action, resource)) return;
  const who =
    actor.kind === 'member'
      ? `role "${actor.role}"`
      : `${actor.kind === 'bot' ? 'a bot access key' : 'an integration key'} (the Admin API needs a personal access token)`;
  const own = POLICY[actorKey(actor)][action] === 'own' ? ' on resources created by others' : '';
  throw errors.forbidden(`Permission denied: ${who} may not perform "${action}"${own}`);
}
