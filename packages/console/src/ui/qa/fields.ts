/**
 * The text forms of a Q&A entry's fields as the Console's entry form edits them: wordings one per line, tags as
 * `key=value; key=value` (the CLI's CSV cell), and the link that opens the form pre-filled ("Answer this").
 */

/** The wordings of a text area: one per line, trimmed, blanks and repeats (case aside) dropped. */
export function wordingsOf(text: string): string[] {
  const seen = new Set<string>();
  const wordings: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const wording = line.replace(/\s+/g, ' ').trim();
    if (wording && !seen.has(wording.toLowerCase())) {
      seen.add(wording.toLowerCase());
      wordings.push(wording);
    }
  }
  return wordings;
}

/** Tags as one line: `key=value; key=value`. */
export function formatTags(tags: Record<string, string>): string {
  return Object.entries(tags)
    .map(([key, value]) => `${key}=${value}`)
    .join('; ');
}

/** The tags of a `key=value; key=value` line, or the first pair that has no key (a message in words). */
export function parseTags(text: string): { tags: Record<string, string> } | { problem: string } {
  const tags: Record<string, string> = {};
  for (const pair of text.split(';')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    const key = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    if (eq < 0 || key === '') return { problem: `"${pair.trim()}" is not key=value.` };
    tags[key] = pair.slice(eq + 1).trim();
  }
  return { tags };
}

/** The query parameter of the Q&A page holding the wordings to start a new entry with (one per line). */
export const ASK_PARAM = 'ask';

/**
 * The address of a bot's Q&A page with the new-entry form open and filled with `wordings` (what a visitor
 * asked, and how else the same question was put).
 * @example answerThisHref('bot-1', ['Refunds?', 'How do I get a refund?'])
 */
export function answerThisHref(botId: string, wordings: string[]): string {
  const ask = new URLSearchParams({ [ASK_PARAM]: wordingsOf(wordings.join('\n')).join('\n') });
  return `/console/bots/${encodeURIComponent(botId)}/qa?${ask}`;
}
