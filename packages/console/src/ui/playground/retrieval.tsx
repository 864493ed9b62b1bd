/** A passage the bot's search weighed, as the reply's debug details list it. */
interface WeighedPassage {
  key?: unknown;
  score?: unknown;
  pageNumber?: unknown;
  matchedTerms?: unknown;
  used?: unknown;
}

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

/**
 * Why the bot replied as it did: what it searched and each passage it weighed, with its score, the question's
 * words it contains and whether the reply used it (the reply's `debug` details).
 */
export function RetrievalDetails({ debug }: { debug: Record<string, unknown> | undefined }) {
  const passages = Array.isArray(debug?.passages) ? (debug.passages as WeighedPassage[]) : undefined;
  if (!debug || !passages) return null;
  return (
    <details class="playground-details">
      <summary>How the bot chose</summary>
      <p class="muted">
        Searched {scopeWords(debug.scope)}
        {typeof debug.searchMs === 'number' ? ` in ${debug.searchMs} ms` : ''}; {passages.length} passage
        {passages.length === 1 ? '' : 's'} weighed.
      </p>
      <ul class="playground-weighed">
        {passages.map((p, i) => (
          <li key={`${String(p.key)}-${i}`}>
            <span class="list-title">{String(p.key ?? '')}</span>
            {typeof p.pageNumber === 'number' ? `, page ${p.pageNumber}` : ''} · score{' '}
            {typeof p.score === 'number' ? p.score.toFixed(3) : '?'} ·{' '}
            {p.used ? 'used in the reply' : 'not used'}
            {Array.isArray(p.matchedTerms) && p.matchedTerms.length > 0
              ? ` · words in common: ${p.matchedTerms.join(', ')}`
              : ' · no word in common'}
          </li>
        ))}
      </ul>
    </details>
  );
}
