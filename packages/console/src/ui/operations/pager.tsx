import { useState } from 'preact/hooks';
import { t } from '../../i18n.js';

/** What `usePager` answers: the page shown and the ways to move. */
export interface Paging {
  /** The token of the page shown (undefined: the first page). */
  token: string | undefined;
  /** The page's number, from 1. */
  page: number;
  next(token: string): void;
  previous(): void;
  reset(): void;
}

/**
 * Keyset paging as people use it: the token of the page shown, Previous (back through the tokens seen) and
 * Next (the page's `nextToken`); `reset()` goes back to the first page. The tokens belong to `filters` (the
 * list's query, as text): when it changes, paging starts again from the first page.
 */
export function usePager(filters = ''): Paging {
  const [paging, setPaging] = useState<{ filters: string; tokens: (string | undefined)[] }>({
    filters,
    tokens: [undefined],
  });
  const tokens = paging.filters === filters ? paging.tokens : [undefined];
  const go = (next: (string | undefined)[]) => setPaging({ filters, tokens: next });
  return {
    token: tokens[tokens.length - 1],
    page: tokens.length,
    next: (token) => go([...tokens, token]),
    previous: () => go(tokens.length > 1 ? tokens.slice(0, -1) : tokens),
    reset: () => go([undefined]),
  };
}

/**
 * Previous and Next buttons of a paged list, with the page number; nothing while there is one page only.
 * `onNext` (optional) runs before the next page is asked for.
 */
export function Pager({
  label,
  pager,
  nextToken,
  onNext,
}: {
  label: string;
  pager: Paging;
  nextToken: string | undefined;
  onNext?(): void;
}) {
  if (pager.page === 1 && !nextToken) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={pager.page === 1} onClick={pager.previous}>
        {t('pager.previous')}
      </button>
      <span class="muted">{t('pager.page', { n: pager.page })}</span>
      <button
        type="button"
        disabled={!nextToken}
        onClick={() => {
          if (!nextToken) return;
          onNext?.();
          pager.next(nextToken);
        }}
      >
        {t('pager.next')}
      </button>
    </nav>
  );
}
