import type { KnowledgeBase, SearchMode } from '@parley/client';
import { useForm } from '../../form.js';
import { type MessageKey, t } from '../../i18n.js';
import { SelectField } from '../select-field.js';

/** A search as the playground runs it. */
export interface PlaygroundSearch {
  query: string;
  mode: SearchMode;
  /** One knowledge base, or '' for all the bot's files. */
  knowledgeBaseId: string;
}

const MODES: ReadonlyArray<{ value: SearchMode; label: MessageKey }> = [
  { value: 'hybrid', label: 'playground.hybrid' },
  { value: 'lexical', label: 'playground.lexical' },
  { value: 'semantic', label: 'playground.semantic' },
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
    (values) => (values.query.trim() ? undefined : { query: t('playground.queryMissing') }),
  );
  const query = form.field('query');
  const mode = form.field('mode');
  const kb = form.field('knowledgeBaseId');
  return (
    <form class="card stack playground-form" onSubmit={form.submit}>
      <div class="field">
        <label for="playground-query">{t('playground.question')}</label>
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
          {t('playground.questionHint')}
        </p>
        {query.error ? (
          <p class="field-error" id="playground-query-error" role="alert">
            {query.error}
          </p>
        ) : null}
      </div>
      <div class="playground-options">
        <SelectField
          id="playground-mode"
          label={t('playground.mode')}
          value={mode.value}
          choices={MODES.map((m) => ({ value: m.value, label: t(m.label) }))}
          onValue={mode.onValue}
        />
        <SelectField
          id="playground-kb"
          label={t('playground.knowledgeBase')}
          value={kb.value}
          choices={[
            { value: '', label: t('playground.allFiles') },
            ...knowledgeBases.map((k) => ({ value: k.id, label: k.name })),
          ]}
          onValue={kb.onValue}
        />
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t('playground.searching') : t('playground.search')}
        </button>
      </div>
    </form>
  );
}
