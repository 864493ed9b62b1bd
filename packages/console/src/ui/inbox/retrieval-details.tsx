/** A passage of the retrieval details, as the answers module writes it (fields may be absent). */
interface Passage {
  key?: string;
  pageNumber?: number;
  score?: number;
  used?: boolean;
  matchedTerms?: string[];
  content?: string;
}

const asPassages = (value: unknown): Passage[] =>
  Array.isArray(value) ? value.filter((p): p is Passage => typeof p === 'object' && p !== null) : [];

const score = (n: unknown) => (typeof n === 'number' ? n.toFixed(3) : '');

/**
 * The retrieval details behind a bot reply (what its `debug` signal carried), behind a disclosure: the query,
 * how long the search took, each passage found with its score and whether the reply used it, then all of it
 * as JSON. Nothing scrolls inside the page (long values wrap). Everything is rendered as text.
 */
export function RetrievalDetails({ details }: { details: Record<string, unknown> }) {
  const passages = asPassages(details.passages);
  const query = typeof details.query === 'string' ? details.query : undefined;
  return (
    <details class="msg-details">
      <summary>Retrieval details</summary>
      <dl class="facts">
        {typeof details.mode === 'string' ? (
          <>
            <dt>Mode</dt>
            <dd>{details.mode}</dd>
          </>
        ) : null}
        {query !== undefined ? (
          <>
            <dt>Query</dt>
            <dd>{query}</dd>
          </>
        ) : null}
        {typeof details.searchMs === 'number' ? (
          <>
            <dt>Search time</dt>
            <dd>{details.searchMs} ms</dd>
          </>
        ) : null}
        <dt>Passages found</dt>
        <dd>{passages.length}</dd>
      </dl>
      {passages.length > 0 ? (
        <div class="table-wrap">
          <table class="retrieval-passages">
            <caption>Passages the search found</caption>
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Page</th>
                <th scope="col">Score</th>
                <th scope="col">Used</th>
                <th scope="col">Matched words</th>
              </tr>
            </thead>
            <tbody>
              {passages.map((p, i) => (
                <tr key={i}>
                  <td>{p.key ?? ''}</td>
                  <td>{p.pageNumber ?? ''}</td>
                  <td>{score(p.score)}</td>
                  <td>{p.used ? 'Yes' : 'No'}</td>
                  <td>{Array.isArray(p.matchedTerms) ? p.matchedTerms.join(', ') : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <pre class="msg-json">{JSON.stringify(details, null, 2)}</pre>
    </details>
  );
}
