import { ApiError } from '@parley/client';
import {
  MutationCache,
  MutationObserver,
  type MutationObserverOptions,
  type MutationObserverResult,
  QueryCache,
  QueryClient,
  type QueryKey,
  QueryObserver,
  type QueryObserverOptions,
  type QueryObserverResult,
} from '@tanstack/query-core';
import { createContext } from 'preact';
import { useContext, useEffect, useReducer, useState } from 'preact/hooks';
import { isSignedOut } from './api.js';

/**
 * The Console's data cache: TanStack Query's core (caching, de-duplication, retries, refetch on focus and on
 * intervals, invalidation). Its Preact adapter declares Preact 10 only, so the two hooks binding it to Preact
 * are the few lines below. A 401 anywhere means the session ended: `onSignedOut` (back to Sign in). After any
 * successful change, cached data is refreshed.
 */
export function createQueryClient(onSignedOut: () => void): QueryClient {
  const signedOutOn = (error: unknown) => {
    if (isSignedOut(error)) onSignedOut();
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: signedOutOn }),
    mutationCache: new MutationCache({
      onError: signedOutOn,
      // A change may touch anything cached: what no page shows is forgotten (the next page opened never
      // shows data from before the change), what is shown is marked stale (the page that made the change
      // reloads what it shows itself, and may be leaving: a deleted bot is not asked for again).
      onSuccess: () => {
        client.removeQueries({ type: 'inactive' });
        void client.invalidateQueries({ type: 'active', refetchType: 'none' });
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        // A 4xx will answer the same again (the client already retries 429 and 5xx itself).
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

export const QueryClientContext = createContext<QueryClient | null>(null);

export function useQueryClient(): QueryClient {
  const client = useContext(QueryClientContext);
  if (!client) throw new Error('useQueryClient() outside QueryClientContext');
  return client;
}

/** Re-renders the component whenever `observer` notifies; unsubscribes on unmount. */
function useSubscription(observer: { subscribe(listener: () => void): () => void }): void {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => observer.subscribe(() => rerender(0)), [observer]);
}

/**
 * A cached query: `queryKey` names the data (the same key anywhere shares one request and one cache entry),
 * `queryFn` loads it. Options as TanStack Query's (`refetchInterval` for live data, `enabled`, `placeholderData`).
 */
export function useQuery<T, K extends QueryKey = QueryKey>(
  options: QueryObserverOptions<T, Error, T, T, K>,
): QueryObserverResult<T, Error> {
  const client = useQueryClient();
  const defaulted = client.defaultQueryOptions(options);
  const [observer] = useState(() => new QueryObserver<T, Error, T, T, K>(client, defaulted));
  useSubscription(observer);
  // Options change with the props (a new key, a new interval): the observer follows on each render.
  useEffect(() => observer.setOptions(defaulted));
  return observer.getOptimisticResult(defaulted);
}

/** A change sent on demand (`mutate`/`mutateAsync`), with its pending state and its failure. */
export function useMutation<T, V = void>(
  options: MutationObserverOptions<T, Error, V>,
): MutationObserverResult<T, Error, V> {
  const client = useQueryClient();
  const [observer] = useState(() => new MutationObserver<T, Error, V>(client, options));
  useSubscription(observer);
  useEffect(() => observer.setOptions(options));
  return observer.getCurrentResult();
}
