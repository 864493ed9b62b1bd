import type { QueryKey } from '@tanstack/query-core';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { describeError, isSignedOut } from './api.js';
import { useConsole } from './context.js';
import { useMutation, useQuery } from './query.js';

/**
 * An action started by a click or a form (a TanStack mutation): its pending state, its failure in words, and
 * `run(work)`, which answers `work`'s answer, or undefined when it failed (a 401 signs out, see query.ts).
 */
export function useAction() {
  const mutation = useMutation<unknown, () => Promise<unknown>>({ mutationFn: (work) => work() });
  const { mutate } = mutation;
  const run = useCallback(
    async <T>(work: () => Promise<T>): Promise<T | undefined> => {
      try {
        return (await mutate(work)) as T;
      } catch {
        return undefined;
      }
    },
    [mutate],
  );
  const error = mutation.error && !isSignedOut(mutation.error) ? describeError(mutation.error) : undefined;
  return { pending: mutation.isPending, error, run };
}

/** What `useLoad` answers: the data once loaded, the failure in words, and `reload()`. */
export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  /** True until the first answer (a refetch in the background keeps the data shown). */
  loading: boolean;
  /** True while any request for it runs, the first or a refetch. */
  fetching: boolean;
  reload(): void;
}

/**
 * Data named by `key` (cached and shared by every component asking for the same key; see query.ts), loaded
 * by `load`. `every` (ms) refetches it on that interval while shown: live lists; `fresh` reads it again
 * whenever a component asking for it mounts. Start the key with the
 * workspace id so that switching workspace never shows another's data.
 * @example const bots = useLoad(['bots', workspace.id], () => client.list.bots().collect());
 */
export function useLoad<T>(
  key: QueryKey,
  load: () => Promise<T>,
  options: { every?: number; enabled?: boolean; fresh?: boolean } = {},
): Loaded<T> {
  const query = useQuery<T>({
    queryKey: key,
    queryFn: load,
    enabled: options.enabled ?? true,
    // Read again each time a page showing it opens (what it counts may have changed on another page).
    ...(options.fresh ? { staleTime: 0 } : {}),
    ...(options.every ? { refetchInterval: options.every } : {}),
  });
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  const error = query.error && !isSignedOut(query.error) ? describeError(query.error) : undefined;
  return {
    data: query.data,
    error,
    loading: query.isPending && query.fetchStatus !== 'idle',
    fetching: query.isFetching,
    reload,
  };
}

/**
 * The signed-in person's own membership of the chosen workspace (their role), loaded with the page: what
 * the role may not do is not offered. `undefined` while loading, `null` without a workspace.
 */
export function useOwnMember() {
  const { client, workspace } = useConsole();
  return useLoad(['member', workspace?.id, 'me'], () =>
    workspace ? client.getWorkspaceMember() : Promise.resolve(null),
  );
}

/** `value` once it has stopped changing for `ms` (a search box asks once typing pauses). */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
