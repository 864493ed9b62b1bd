/**
 * The small part of Markdown the bot's replies are written in (answers/format.ts): paragraphs, `>` quotes,
 * `-` lists, `[label](url)` links, `**bold**` and backslash escapes. Parsed into plain data that the reply
 * panel renders as elements and text: never HTML. Anything else stays as typed.
 */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong'; text: string }
  | { kind: 'link'; text: string; url: string };

export type Block =
  | { kind: 'paragraph'; lines: Inline[][] }
  | { kind: 'quote'; lines: Inline[][] }
  | { kind: 'list'; items: Inline[][] };

const unescaped = (text: string) => text.replace(/\\([\\`*_[\]<>#|()!-])/g, '$1');

/** Only web links become links; any other URL (javascript:…) stays text. */
function webUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** The inline pieces of one line. */
export function parseInline(line: string): Inline[] {
  const pieces: Inline[] = [];
  const pattern = /(?<!\\)\[((?:\\.|[^\]\\])+)\]\(([^()\s]+)\)|\*\*([^*]+)\*\*/g;
  let last = 0;
  for (const m of line.matchAll(pattern)) {
    const at = m.index ?? 0;
    if (at > last) pieces.push({ kind: 'text', text: unescaped(line.slice(last, at)) });
    const url = m[2] === undefined ? undefined : webUrl(m[2]);
    if (m[3] !== undefined) pieces.push({ kind: 'strong', text: unescaped(m[3]) });
    else if (url) pieces.push({ kind: 'link', text: unescaped(m[1] ?? ''), url });
    else pieces.push({ kind: 'text', text: unescaped(m[0]) });
    last = at + m[0].length;
  }
  if (last < line.length) pieces.push({ kind: 'text', text: unescaped(line.slice(last)) });
  return pieces;
}

/** The blocks of a reply: blank lines part them; a block of `>` lines is a quote, of `- ` lines a list. */
export function parseReply(markdown: string): Block[] {
  return markdown
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((chunk) => chunk.split('\n'))
    .filter((lines) => lines.some((l) => l.trim() !== ''))
    .map((lines): Block => {
      if (lines.every((l) => l.startsWith('>'))) {
        return { kind: 'quote', lines: lines.map((l) => parseInline(l.replace(/^> ?/, ''))) };
      }
      if (lines.every((l) => l.startsWith('- '))) {
        return { kind: 'list', items: lines.map((l) => parseInline(l.slice(2))) };
      }
      return { kind: 'paragraph', lines: lines.map(parseInline) };
    });
}
