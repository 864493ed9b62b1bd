import { useState } from 'preact/hooks';

/**
 * Keyset paging as people use it: the token of the page shown, Previous (back through the tokens seen) and
 * Next (the page's `nextToken`); `reset()` goes back to the first page (a filter changed).
 */
export function usePager() {
  const [tokens, setTokens] = useState<Array<string | undefined>>([undefined]);
  const current = tokens[tokens.length - 1];
  return {
    token: current,
    page: tokens.length,
    next: (token: string) => setTokens([...tokens, token]),
    previous: () => setTokens(tokens.length > 1 ? tokens.slice(0, -1) : tokens),
    reset: () => setTokens([undefined]),
  };
}

/** Previous and Next buttons of a paged list, with the page number. */
export function Pager({
  label,
  page,
  nextToken,
  onPrevious,
  onNext,
}: {
  label: string;
  page: number;
  nextToken: string | undefined;
  onPrevious(): void;
  onNext(token: string): void;
}) {
  if (page === 1 && !nextToken) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={page === 1} onClick={onPrevious}>
        Previous page
      </button>
      <span class="muted">Page {page}</span>
      <button type="button" disabled={!nextToken} onClick={() => nextToken && onNext(nextToken)}>
        Next page
      </button>
    </nav>
  );
}
