import { formatCount } from '../../format.js';
import { t } from '../../i18n.js';
import { Highlighted } from './highlight.js';
import { Rank } from './rank.js';
import { filePath } from './results.js';
import { relativeStrengths } from './scores.js';

/** A passage the bot's search weighed, as the reply's debug details list it (answers/retrieval.ts). */
interface WeighedPassage {
  fileId?: unknown;
  key?: unknown;
  score?: unknown;
  pageNumber?: unknown;
  matchedWords?: unknown;
  used?: unknown;
  content?: unknown;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The debug details' scope in words: which files the bot searched. */
function scopeWords(scope: unknown): string {
  if (scope === 'all_files') return t('retrieval.allFiles');
  if (scope && typeof scope === 'object') {
    const { knowledgeBaseIds, files } = scope as { knowledgeBaseIds?: unknown[]; files?: unknown };
    const bases = Array.isArray(knowledgeBaseIds) ? knowledgeBaseIds.length : 0;
    const count = typeof files === 'number' ? files : 0;
    return t('retrieval.scope', {
      bases: formatCount('retrieval.kbsOne', 'retrieval.kbs', bases),
      files: formatCount('retrieval.filesOne', 'retrieval.files', count),
    });
  }
  return t('retrieval.unknown');
}

const quoted = (words: readonly string[]) =>
  words.map((word) => t('retrieval.quotedWord', { word })).join(', ');

/**
 * Why a passage was or was not quoted, in words: the question's words it holds (the very words marked in its
 * text, so the two never disagree) or that it came by meaning alone.
 */
export function whyChosen(used: boolean, words: readonly string[]): string {
  if (used)
    return words.length > 0
      ? t('retrieval.quotedHolds', { words: quoted(words) })
      : t('retrieval.quotedMeaning');
  return words.length > 0
    ? t('retrieval.notQuotedHolds', { words: quoted(words) })
    : t('retrieval.notQuotedNone');
}

/**
 * How the bot chose its reply (the reply's `debug` details): what it searched, then each passage it weighed
 * as a table: rank and strength next to the best, the passage with the question's words marked, its
 * document and page, and why it was or was not quoted.
 */
export function RetrievalDetails({
  botId,
  debug,
}: {
  botId: string;
  debug: Record<string, unknown> | undefined;
}) {
  const passages = Array.isArray(debug?.passages) ? (debug.passages as WeighedPassage[]) : undefined;
  if (!debug || !passages) return null;
  const strengths = relativeStrengths(passages.map((p) => (typeof p.score === 'number' ? p.score : 0)));
  return (
    <details class="playground-details">
      <summary>{t('retrieval.howChose')}</summary>
      <p class="muted">
        {t('retrieval.searched', { scope: scopeWords(debug.scope) })}
        {typeof debug.searchMs === 'number' ? t('retrieval.searchedIn', { ms: debug.searchMs }) : ''}
        {formatCount('retrieval.weighedOne', 'retrieval.weighed', passages.length)}
      </p>
      {passages.length > 0 ? (
        <div class="table-box">
          <table class="playground-weighed">
            <caption class="visually-hidden">{t('retrieval.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('retrieval.rank')}</th>
                <th scope="col">{t('retrieval.passage')}</th>
                <th scope="col">{t('retrieval.document')}</th>
                <th scope="col">{t('retrieval.page')}</th>
                <th scope="col">{t('retrieval.why')}</th>
              </tr>
            </thead>
            <tbody>
              {passages.map((p, i) => {
                const words = strings(p.matchedWords).sort((a, b) => b.length - a.length);
                const key = String(p.key ?? '');
                return (
                  <tr key={`${key}-${i}`}>
                    <td>
                      <Rank rank={i + 1} strength={strengths[i] ?? 0} />
                    </td>
                    <td class="playground-passage">
                      <Highlighted text={typeof p.content === 'string' ? p.content : ''} words={words} />
                    </td>
                    <td>
                      {typeof p.fileId === 'string' ? <a href={filePath(botId, p.fileId)}>{key}</a> : key}
                    </td>
                    <td>{typeof p.pageNumber === 'number' ? p.pageNumber : '—'}</td>
                    <td>{whyChosen(p.used === true, words)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </details>
  );
}
