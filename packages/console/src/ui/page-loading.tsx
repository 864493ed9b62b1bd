import type { ListSource } from './list-state.js';
import { Notice } from './notice.js';

/**
 * The page of one thing (a file, a knowledge base) until it is loaded: the link back to its list, then
 * `loadingWords` until the first answer, or the failure in words.
 * @example if (!file.data) return <PageLoading of={file} back={back} backWords="Files" loadingWords="Loading…" />;
 */
export function PageLoading(props: {
  of: Omit<ListSource<unknown>, 'data'>;
  back: string;
  backWords: string;
  loadingWords: string;
}) {
  return (
    <div class="stack">
      <p>
        <a href={props.back}>{props.backWords}</a>
      </p>
      {props.of.loading ? <p role="status">{props.loadingWords}</p> : <Notice error={props.of.error} />}
    </div>
  );
}
