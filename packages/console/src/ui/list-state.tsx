import type { ComponentChildren } from 'preact';
import { Notice } from './notice.js';

/** What a list is loaded from: a `useLoad` answer, or the same three facts made up from several. */
export interface ListSource<T> {
  data?: T[] | undefined;
  error: string | undefined;
  /** True until the first answer. */
  loading: boolean;
}

/**
 * A loaded list in its states, the same on every page: its failure in words (an alert, above the rest),
 * `loadingWords` until the first answer, `empty` (words) when there is nothing, else the list: a
 * `<ul class="list">` named `label` with one `row` per item, or whatever `children` make of the items.
 * Without `empty`, an empty list is shown like any other.
 * @example <ListState of={bots} loadingWords="Loading bots…" empty="No bots yet." label="Bots"
 *   row={(bot) => <li key={bot.id}>{bot.name}</li>} />
 */
export function ListState<T>(
  props: {
    of: ListSource<T>;
    loadingWords: string;
    empty?: ComponentChildren;
    /** The empty words' paragraph class (default `empty`). */
    emptyClass?: string;
  } & ({ label: string; row(item: T): ComponentChildren } | { children(items: T[]): ComponentChildren }),
) {
  const { data, error, loading } = props.of;
  const list = (items: T[]) =>
    'row' in props ? (
      <ul class="list" aria-label={props.label}>
        {items.map(props.row)}
      </ul>
    ) : (
      props.children(items)
    );
  return (
    <>
      <Notice error={error} />
      {data === undefined ? (
        loading ? (
          <p role="status">{props.loadingWords}</p>
        ) : null
      ) : data.length === 0 && props.empty !== undefined ? (
        <p class={props.emptyClass ?? 'empty'}>{props.empty}</p>
      ) : (
        list(data)
      )}
    </>
  );
}
