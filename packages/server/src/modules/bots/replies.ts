import { type BotReplies, markdownLinkIssues } from '@parley/protocol';
import { errors } from '../../errors/errors.js';
import { storedObject } from './stored-object.js';

// The bot's own reply texts (issue #33, item 5): stored as JSON in `bots.replies`, checked on the way in, read
// back leniently (a stored value that is not a text is the default).

const FIELDS = ['notFound', 'intro', 'clarify'] as const;

/**
 * 400 InvalidPayload when a reply text is blank or links elsewhere than http(s), mailto: or tel: (naming the
 * field, e.g. `replies.notFound`); otherwise the texts trimmed, as stored.
 */
export function checkReplies(replies: BotReplies): BotReplies {
  const out: BotReplies = {};
  for (const field of FIELDS) {
    const text = replies[field];
    if (text === undefined) continue;
    const trimmed = text.trim();
    if (!trimmed)
      throw errors.invalidPayload(`replies.${field} is blank; leave it out to use the default`, [
        { field: `replies.${field}`, message: 'must not be blank' },
      ]);
    const bad = markdownLinkIssues(trimmed);
    if (bad.length > 0) {
      const shown = (bad[0] ?? '').slice(0, 80);
      throw errors.invalidPayload(
        `replies.${field} links to "${shown}": links and images may lead only to http(s), mailto: and tel: addresses`,
        [{ field: `replies.${field}`, message: `link "${shown}" is not http(s), mailto: or tel:` }],
      );
    }
    out[field] = trimmed;
  }
  return out;
}

/** The stored reply texts (JSON) as the wire shows them: only the fields set, each a text. */
export function repliesOf(stored: string | null | undefined): BotReplies {
  const record = storedObject(stored);
  const out: BotReplies = {};
  for (const field of FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && value) out[field] = value;
  }
  return out;
}
