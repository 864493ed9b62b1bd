import type { KnowledgeBase, SearchMode } from '@parley/client';
import { useForm } from '../../form.js';

/** A search as the playground runs it. */
export interface PlaygroundSearch {
  query: string;
  mode: SearchMode;
  /** One knowledge base, or '' for all the bot's files. */
  knowledgeBaseId: string;
}

const MODES: ReadonlyArray<{ value: SearchMode; label: string }> = [
  { value: 'hybrid', label: 'Hybrid (words and meaning)' },
  { value: 'lexical', label: 'Lexical (words only)' },
  { value: 'semantic', label: 'Semantic (meaning only)' },
];

/** The playground's query box, search mode and knowledge base filter. */
export function SearchForm({
  knowledgeBases,
  busy,
  onSearch,
}: {
  knowledgeBases: readonly KnowledgeBase[];
  busy: boolean;
  onSearch(search: PlaygroundSearch): void;
}) {
  const form = useForm<PlaygroundSearch>(
    { query: '', mode: 'hybrid', knowledgeBaseId: '' },
    (values) => onSearch({ ...values, query: values.query.trim() }),
    (values) => (values.query.trim() ? undefined : { query: 'Type a question or some words to look for.' }),
  );
  const query = form.field('query');
  const mode = form.field('mode');
  const kb = form.field('knowledgeBaseId');
  return (
    <form class="card stack playground-form" onSubmit={form.submit}>
      <div class="field">
        <label for="playground-query">Question</label>
        <input
          id="playground-query"
          type="search"
          value={query.value}
          maxLength={1000}
          aria-describedby={
            query.error ? 'playground-query-error playground-query-hint' : 'playground-query-hint'
          }
          aria-invalid={query.error ? true : undefined}
          onInput={(event) => query.onValue(event.currentTarget.value)}
        />
        <p class="hint" id="playground-query-hint">
          Ask as a visitor would: the passages found and the bot's reply show side by side.
        </p>
        {query.error ? (
          <p class="field-error" id="playground-query-error" role="alert">
            {query.error}
          </p>
        ) : null}
      </div>
      <div class="playground-options">
        <div class="field">
          <label for="playground-mode">Search mode</label>
          <select
            id="playground-mode"
            value={mode.value}
            onChange={(event) => mode.onValue(event.currentTarget.value as SearchMode)}
          >
            {MODES.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="playground-kb">Knowledge base</label>
          <select
            id="playground-kb"
            value={kb.value}
            onChange={(event) => kb.onValue(event.currentTarget.value)}
          >
            <option value="">All of this bot's files</option>
            {knowledgeBases.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Searching…' : 'Search'}
        </button>
      </div>
    </form>
  );
}
