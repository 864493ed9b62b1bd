import { t } from '../../i18n.js';
import { filePath } from './results.js';

/** One source of a reply: the file quoted, and the page where the file has pages. */
export interface ReplySource {
  fileId: string;
  key: string;
  pageNumber?: number | null | undefined;
}

/**
 * The sources of a bot reply (the Playground's preview, a transcript's message), each a link to its file page;
 * nothing when there are none. `titleId` names the list by its heading.
 */
export function SourceList(props: {
  botId: string;
  sources: readonly ReplySource[];
  class: string;
  titleId?: string;
  listClass?: string;
}) {
  if (props.sources.length === 0) return null;
  return (
    <div class={props.class}>
      <h3 id={props.titleId}>{t('answer.sources')}</h3>
      <ol class={props.listClass} aria-labelledby={props.titleId}>
        {props.sources.map((s, i) => (
          <li key={`${s.fileId}-${i}`}>
            <a href={filePath(props.botId, s.fileId)}>{s.key}</a>
            {s.pageNumber ? <span class="muted">{t('answer.sourcePage', { n: s.pageNumber })}</span> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
