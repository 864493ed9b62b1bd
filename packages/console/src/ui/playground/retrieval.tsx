import { Highlighted } from './highlight.js';
import { Rank } from './rank.js';
import { filePath } from './results.js';
import { relativeStrengths } from './scores.js';

/** A passage the bot's search weighed, as the reply's debug details list it (answers/retrieval.ts). */
interface WeighedPassage {
  fileId?: unknown;
  key?: unknown;
  score?: unknown;
  pageNumber?: unknown;
  matchedWords?: unknown;
  used?: unknown;
  content?: unknown;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The debug details' scope in words: which files the bot searched. */
function scopeWords(scope: unknown): string {
  if (scope === 'all_files') return 'all its files (it has no knowledge base)';
  if (scope && typeof scope === 'object') {
    const { knowledgeBaseIds, files } = scope as { knowledgeBaseIds?: unknown[]; files?: unknown };
    const bases = Array.isArray(knowledgeBaseIds) ? knowledgeBaseIds.length : 0;
    return `${bases} knowledge base${bases === 1 ? '' : 's'}, ${String(files ?? 0)} file${files === 1 ? '' : 's'}`;
  }
  return 'unknown';
}

const quoted = (words: readonly string[]) => words.map((w) => `“${w}”`).join(', ');

/**
 * Why a passage was or was not quoted, in words: the question's words it holds (the very words marked in its
 * text, so the two never disagree) or that it came by meaning alone.
 */
export function whyChosen(used: boolean, words: readonly string[]): string {
  if (used) return words.length > 0 ? `Quoted: holds ${quoted(words)}` : 'Quoted: close in meaning';
  return words.length > 0
    ? `Not quoted, though it holds ${quoted(words)}`
    : 'Not quoted: no word of the question';
}

/**
 * How the bot chose its reply (the reply's `debug` details): what it searched, then each passage it weighed
 * as a table: rank and strength next to the best, the passage with the question's words marked, its
 * document and page, and why it was or was not quoted.
 */
export function RetrievalDetails({
  botId,
  debug,
}: {
  botId: string;
  debug: Record<string, unknown> | undefined;
}) {
  const passages = Array.isArray(debug?.passages) ? (debug.passages as WeighedPassage[]) : undefined;
  if (!debug || !passages) return null;
  const strengths = relativeStrengths(passages.map((p) => (typeof p.score === 'number' ? p.score : 0)));
  return (
    <details class="playground-details">
      <summary>How the bot chose</summary>
      <p class="muted">
        Searched {scopeWords(debug.scope)}
        {typeof debug.searchMs === 'number' ? ` in ${debug.searchMs} ms` : ''}; {passages.length} passage
        {passages.length === 1 ? '' : 's'} weighed.
      </p>
      {passages.length > 0 ? (
        <div class="table-box">
          <table class="playground-weighed">
            <caption class="visually-hidden">Passages the bot weighed, best first</caption>
            <thead>
              <tr>
                <th scope="col">Rank</th>
                <th scope="col">Passage</th>
                <th scope="col">Document</th>
                <th scope="col">Page</th>
                <th scope="col">Why chosen</th>
              </tr>
            </thead>
            <tbody>
              {passages.map((p, i) => {
                const words = strings(p.matchedWords).sort((a, b) => b.length - a.length);
                const key = String(p.key ?? '');
                return (
                  <tr key={`${key}-${i}`}>
                    <td>
                      <Rank rank={i + 1} strength={strengths[i] ?? 0} />
                    </td>
                    <td class="playground-passage">
                      <Highlighted text={typeof p.content === 'string' ? p.content : ''} words={words} />
                    </td>
                    <td>
                      {typeof p.fileId === 'string' ? <a href={filePath(botId, p.fileId)}>{key}</a> : key}
                    </td>
                    <td>{typeof p.pageNumber === 'number' ? p.pageNumber : '—'}</td>
                    <td>{whyChosen(p.used === true, words)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </details>
  );
}
