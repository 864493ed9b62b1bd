import type { SearchPassage } from '@parley/client';
import { t } from '../../i18n.js';
import { Highlighted } from './highlight.js';
import { Rank } from './rank.js';
import { relativeStrengths } from './scores.js';
import { queryWords } from './words.js';

/** The link to a file's page in the Console. */
export function filePath(botId: string, fileId: string): string {
  return `/console/bots/${encodeURIComponent(botId)}/files/${encodeURIComponent(fileId)}`;
}

/**
 * The passages a search found, best first: rank and a bar of strength next to the best (never raw scores),
 * file (a link to its page), page number, the query's words marked.
 */
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
    return <p class="empty">{t('results.nothing', { query })}</p>;
  }
  const strengths = relativeStrengths(passages.map((p) => p.score));
  const words = queryWords(query);
  return (
    <ol class="list playground-results" aria-label={t('playground.passages')}>
      {passages.map((p, i) => (
        <li key={`${p.file.id}-${i}`} class="playground-result">
          <div class="playground-result-head">
            <a href={filePath(botId, p.file.id)} class="list-title">
              {p.file.key}
            </a>
            <span class="muted playground-result-place">
              {p.meta.pageNumber ? t('results.page', { n: p.meta.pageNumber }) : null}
              <Rank rank={i + 1} strength={strengths[i] ?? 0} />
            </span>
          </div>
          <p class="playground-passage">
            <Highlighted text={p.content} words={words} />
          </p>
        </li>
      ))}
    </ol>
  );
}
