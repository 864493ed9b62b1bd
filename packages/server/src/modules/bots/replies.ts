import {
  BOT_REPLY_FIELDS,
  BOT_REPLY_MAX_LOCALES,
  type BotReplies,
  type BotReplyTexts,
  markdownLinkIssues,
  WEBCHAT_LOCALES,
  webchatLocaleOf,
} from '@parley/protocol';
import { errors } from '../../errors/errors.js';
import { storedObject } from './stored-object.js';
import { canonicalTag } from './words.js';

// The bot's own reply texts (issue #33, item 5), per language (issue #38, item 3): stored as JSON in
// `bots.replies`, checked on the way in, read back leniently (a stored value that is not a text is the default).

const invalid = (field: string, message: string, detail: string) =>
  errors.invalidPayload(`${field} ${message}`, [{ field, message: detail }]);

/** The texts of one language checked (blank or off-site links refused, naming `${prefix}.${field}`), trimmed. */
function checkTexts(texts: BotReplyTexts, prefix: string): BotReplyTexts {
  const out: BotReplyTexts = {};
  for (const field of BOT_REPLY_FIELDS) {
    const text = texts[field];
    if (text === undefined) continue;
    const trimmed = text.trim();
    const name = `${prefix}.${field}`;
    if (!trimmed) throw invalid(name, 'is blank; leave it out to use the default', 'must not be blank');
    const bad = markdownLinkIssues(trimmed);
    if (bad.length > 0) {
      const shown = (bad[0] ?? '').slice(0, 80);
      throw invalid(
        name,
        `links to "${shown}": links and images may lead only to http(s), mailto: and tel: addresses`,
        `link "${shown}" is not http(s), mailto: or tel:`,
      );
    }
    out[field] = trimmed;
  }
  return out;
}

/** A language tag of a shipped language in its canonical case, or 400 naming `field`. */
function checkTag(tag: string, field: string): string {
  if (!webchatLocaleOf(tag))
    throw invalid(
      field,
      `"${tag.slice(0, 35)}" is not a language tag of a language the bot speaks (${WEBCHAT_LOCALES.join(', ')}), e.g. fr or fr-CA`,
      'must be a language tag of a shipped language',
    );
  return canonicalTag(tag);
}

/**
 * 400 InvalidPayload when a reply text is blank or links elsewhere than http(s), mailto: or tel: (naming the
 * field, e.g. `replies.notFound` or `replies.locales.fr.intro`), when `language` or a key of `locales` is not
 * a tag of a shipped language, when two keys name the same tag or when there are too many; otherwise the
 * texts trimmed and the tags in canonical case, as stored (a language without texts is left out).
 */
export function checkReplies(replies: BotReplies): BotReplies {
  const out: BotReplies = checkTexts(replies, 'replies');
  if (replies.language !== undefined) out.language = checkTag(replies.language, 'replies.language');
  const entries = Object.entries(replies.locales ?? {});
  if (entries.length > BOT_REPLY_MAX_LOCALES)
    throw invalid(
      'replies.locales',
      `holds ${entries.length} languages; at most ${BOT_REPLY_MAX_LOCALES}`,
      `at most ${BOT_REPLY_MAX_LOCALES} languages`,
    );
  const locales: Record<string, BotReplyTexts> = {};
  for (const [key, texts] of entries) {
    const tag = checkTag(key, `replies.locales.${key.slice(0, 35)}`);
    if (tag in locales)
      throw invalid(`replies.locales.${key}`, `names the language ${tag} twice`, 'duplicate language');
    const checked = checkTexts(texts, `replies.locales.${key}`);
    if (Object.keys(checked).length > 0) locales[tag] = checked;
  }
  if (Object.keys(locales).length > 0) out.locales = locales;
  return out;
}

/** The text fields of a stored object that are texts. */
function textsOf(record: Record<string, unknown>): BotReplyTexts {
  const out: BotReplyTexts = {};
  for (const field of BOT_REPLY_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && value) out[field] = value;
  }
  return out;
}

/** The stored reply texts (JSON) as the wire shows them: only the fields set, each a text. */
export function repliesOf(stored: string | null | undefined): BotReplies {
  const record = storedObject(stored);
  const out: BotReplies = textsOf(record);
  if (typeof record.language === 'string' && webchatLocaleOf(record.language)) out.language = record.language;
  const locales = record.locales;
  if (locales && typeof locales === 'object' && !Array.isArray(locales)) {
    const kept: Record<string, BotReplyTexts> = {};
    for (const [tag, texts] of Object.entries(locales as Record<string, unknown>)) {
      if (!webchatLocaleOf(tag) || !texts || typeof texts !== 'object' || Array.isArray(texts)) continue;
      const read = textsOf(texts as Record<string, unknown>);
      if (Object.keys(read).length > 0) kept[tag] = read;
    }
    if (Object.keys(kept).length > 0) out.locales = kept;
  }
  return out;
}
