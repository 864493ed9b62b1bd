import type { AuditRecord } from '@parley/client';
import { type MessageKey, t, wordsOf } from '../../i18n.js';

/** The names a record's ids stand for: members by account id, bots by id (what the page has loaded). */
export interface AuditNames {
  member(accountId: string): string | undefined;
  bot(botId: string): string | undefined;
}

/** A file's size as people read it (the Knowledge pages' words: "1.2 KB"). */
type SizeWords = (bytes: number) => string;

/** Handoff states in words. */
const HANDOFF_STATES: Record<string, MessageKey> = {
  bot: 'auditValue.bot',
  pending: 'auditValue.pending',
  assigned: 'auditValue.assigned',
  resolved: 'auditValue.resolved',
};

/** The roles of a role change, in words (lower case, inside a sentence). */
const ROLES: Record<string, MessageKey> = {
  viewer: 'auditRole.viewer',
  billing: 'auditRole.billing',
  developer: 'auditRole.developer',
  manager: 'auditRole.manager',
  administrator: 'auditRole.administrator',
  owner: 'auditRole.owner',
};

/** The Files API fields an update changed, in words. */
const FILE_FIELDS: Record<string, MessageKey> = {
  metadata: 'auditValue.metadata',
  accessPolicies: 'auditValue.access',
  expiresAt: 'auditValue.expiry',
};

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const quoted = (v: unknown): string => t('auditValue.quoted', { text: text(v) });

/** Tags as sent in a change: key=value, or "key removed" for null. */
function tagWords(tags: Record<string, unknown>): string {
  return Object.entries(tags)
    .map(([k, v]) => (v === null ? t('auditValue.tagRemoved', { key: k }) : `${k}=${text(v)}`))
    .join(', ');
}

/** The parts of a record's value said in words, by what they are (the fields each action's value has). */
function partsOf(value: Record<string, unknown>, names: AuditNames, size: SizeWords): string[] {
  const { botId, ...rest } = value;
  const parts: string[] = [];
  const say = (key: string, words: string) => {
    parts.push(words);
    delete rest[key];
  };
  if (typeof rest.from === 'string' && typeof rest.to === 'string') {
    const handoff = rest.from in HANDOFF_STATES && rest.to in HANDOFF_STATES;
    parts.push(
      handoff
        ? t('auditValue.handoff', {
            from: quoted(wordsOf(HANDOFF_STATES, rest.from)),
            to: quoted(wordsOf(HANDOFF_STATES, rest.to)),
          })
        : t('auditValue.roleChange', { from: wordsOf(ROLES, rest.from), to: wordsOf(ROLES, rest.to) }),
    );
    delete rest.from;
    delete rest.to;
  }
  if (typeof rest.assignedTo === 'string')
    say(
      'assignedTo',
      t('auditValue.assignedTo', { name: names.member(rest.assignedTo) ?? t('auditValue.aMember') }),
    );
  if (typeof rest.role === 'string') say('role', t('auditValue.role', { role: wordsOf(ROLES, rest.role) }));
  if (typeof rest.previousName === 'string')
    say('previousName', t('auditValue.renamed', { name: quoted(rest.previousName) }));
  if (Array.isArray(rest.questions))
    say('questions', t('auditValue.questions', { questions: rest.questions.map(quoted).join(', ') }));
  if (typeof rest.size === 'number')
    say('size', rest.replaced ? t('auditValue.replaced', { size: size(rest.size) }) : size(rest.size));
  delete rest.replaced;
  if (rest.tags && typeof rest.tags === 'object')
    say('tags', t('auditValue.tags', { tags: tagWords(rest.tags as Record<string, unknown>) }));
  if (Array.isArray(rest.fields))
    say(
      'fields',
      t('auditValue.fields', { fields: rest.fields.map((f) => wordsOf(FILE_FIELDS, String(f))).join(', ') }),
    );
  if (typeof rest.status === 'string')
    say('status', t(rest.status === 'disabled' ? 'auditValue.disabled' : 'auditValue.enabled'));
  const changed = Object.keys(rest);
  // What is left is the body of an update (workspace or bot settings): the fields it changed, by name.
  if (changed.length > 0) parts.push(t('auditValue.changed', { fields: changed.join(', ') }));
  if (typeof botId === 'string')
    parts.push(t('auditValue.inBot', { name: names.bot(botId) ?? t('auditValue.aBot') }));
  return parts;
}

/**
 * What an audit record's stored value says, in words for people (never its JSON): "changed role from
 * developer to viewer", "renamed from “Manuals”, in Helpdesk", "tags topic=setup". Empty when there is none.
 */
export function describeValue(
  record: Pick<AuditRecord, 'value'>,
  names: AuditNames,
  size: SizeWords,
): string {
  if (!record.value) return '';
  let value: unknown;
  try {
    value = JSON.parse(record.value);
  } catch {
    return record.value;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return text(value);
  return partsOf(value as Record<string, unknown>, names, size).join(', ');
}
