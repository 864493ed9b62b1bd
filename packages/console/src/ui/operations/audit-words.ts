import type { AuditRecord } from '@parley/client';

/** The names a record's ids stand for: members by account id, bots by id (what the page has loaded). */
export interface AuditNames {
  member(accountId: string): string | undefined;
  bot(botId: string): string | undefined;
}

/** A file's size as people read it (the Knowledge pages' words: "1.2 KB"). */
type SizeWords = (bytes: number) => string;

/** Handoff states in words. */
const HANDOFF_STATES: Record<string, string> = {
  bot: 'the bot answers',
  pending: 'waiting for a person',
  assigned: 'a person answers',
  resolved: 'resolved',
};

/** The Files API fields an update changed, in words. */
const FILE_FIELDS: Record<string, string> = {
  metadata: 'metadata',
  accessPolicies: 'access',
  expiresAt: 'expiry',
};

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const quoted = (v: unknown): string => `“${text(v)}”`;

/** Tags as sent in a change: key=value, or "key removed" for null. */
function tagWords(tags: Record<string, unknown>): string {
  return Object.entries(tags)
    .map(([k, v]) => (v === null ? `${k} removed` : `${k}=${text(v)}`))
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
    const from = handoff ? (HANDOFF_STATES[rest.from] ?? rest.from) : rest.from;
    const to = handoff ? (HANDOFF_STATES[rest.to] ?? rest.to) : rest.to;
    parts.push(handoff ? `from “${from}” to “${to}”` : `changed role from ${from} to ${to}`);
    delete rest.from;
    delete rest.to;
  }
  if (typeof rest.assignedTo === 'string')
    say('assignedTo', `assigned to ${names.member(rest.assignedTo) ?? 'a member'}`);
  if (typeof rest.role === 'string') say('role', `role ${rest.role}`);
  if (typeof rest.previousName === 'string') say('previousName', `renamed from ${quoted(rest.previousName)}`);
  if (Array.isArray(rest.questions)) say('questions', `questions ${rest.questions.map(quoted).join(', ')}`);
  if (typeof rest.size === 'number')
    say('size', rest.replaced ? `replaced, ${size(rest.size)}` : size(rest.size));
  delete rest.replaced;
  if (rest.tags && typeof rest.tags === 'object')
    say('tags', `tags ${tagWords(rest.tags as Record<string, unknown>)}`);
  if (Array.isArray(rest.fields))
    say('fields', `changed its ${rest.fields.map((f) => FILE_FIELDS[f] ?? f).join(', ')}`);
  if (typeof rest.status === 'string') say('status', rest.status === 'disabled' ? 'disabled' : 'enabled');
  const changed = Object.keys(rest);
  // What is left is the body of an update (workspace or bot settings): the fields it changed, by name.
  if (changed.length > 0) parts.push(`changed ${changed.join(', ')}`);
  if (typeof botId === 'string') parts.push(`in ${names.bot(botId) ?? 'a bot'}`);
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
