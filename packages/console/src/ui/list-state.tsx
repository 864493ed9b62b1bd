import type { ComponentChildren } from 'preact';
import { Notice } from './notice.js';

/**
 * A loaded list in its states, the same on every page: its failure in words (an alert, above the rest),
 * `loadingWords` until the first answer, `empty` (words) when there is nothing, else the list itself
 * (`children`, given the items). Without `empty`, an empty list is handed to `children` like any other.
 * @example <ListState error={bots.error} loading={bots.loading} items={bots.data} loadingWords="Loading bots…"
 *   empty="No bots yet.">{(list) => <ul>…</ul>}</ListState>
 */
export function ListState<T>(props: {
  error: string | undefined;
  /** True until the first answer. */
  loading: boolean;
  /** The items once loaded. */
  items: T[] | undefined;
  /** Said while loading, e.g. "Loading bots…". */
  loadingWords: string;
  /** Said when there are no items (a paragraph of class `empty`, or `emptyClass`). */
  empty?: ComponentChildren;
  emptyClass?: string;
  children(items: T[]): ComponentChildren;
}) {
  const { items } = props;
  return (
    <>
      <Notice error={props.error} />
      {items === undefined ? (
        props.loading ? (
          <p role="status">{props.loadingWords}</p>
        ) : null
      ) : items.length === 0 && props.empty !== undefined ? (
        <p class={props.emptyClass ?? 'empty'}>{props.empty}</p>
      ) : (
        props.children(items)
      )}
    </>
  );
}
