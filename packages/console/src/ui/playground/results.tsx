import type { SearchPassage } from '@parley/client';
import { Highlighted } from './highlight.js';

/** The link to a file's page in the Console. */
export function filePath(botId: string, fileId: string): string {
  return `/console/bots/${encodeURIComponent(botId)}/files/${encodeURIComponent(fileId)}`;
}

/** The passages a search found, best first: score, file (a link to its page), page number, matched words marked. */
export function SearchResults({
  botId,
  query,
  passages,
}: {
  botId: string;
  query: string;
  passages: readonly SearchPassage[];
}) {
  if (passages.length === 0) {
    return (
      <p class="empty">
        Nothing matched “{query}”. Try other words, another mode or all knowledge bases; if the answer is in
        no document yet, add one on the Knowledge tab.
      </p>
    );
  }
  return (
    <ol class="list playground-results" aria-label="Passages found">
      {passages.map((p, i) => (
        <li key={`${p.file.id}-${i}`} class="playground-result">
          <div class="playground-result-head">
            <a href={filePath(botId, p.file.id)} class="list-title">
              {p.file.key}
            </a>
            <span class="muted">
              {p.meta.pageNumber ? `Page ${p.meta.pageNumber} · ` : ''}Score {p.score.toFixed(3)}
            </span>
          </div>
          <p class="playground-passage">
            <Highlighted text={p.content} query={query} />
          </p>
        </li>
      ))}
    </ol>
  );
}
