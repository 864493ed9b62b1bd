import type { Bot } from '@parley/client';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useConsole } from '../../context.js';
import { useLoad, useOwnMember, useSettled } from '../../hooks.js';
import { t } from '../../i18n.js';
import { mayWriteQa } from '../../roles.js';
import { BotFrame } from '../bot-frame.js';
import { Field } from '../field.js';
import { ListState } from '../list-state.js';
import { Notice } from '../notice.js';
import { Pager, usePager } from '../operations/pager.js';
import { ASK_PARAM, wordingsOf } from './fields.js';
import { QaEntryForm } from './qa-entry-form.js';
import { QaEntryRow } from './qa-entry-row.js';

/** Entries per page. */
const PAGE_SIZE = 20;

/**
 * A bot's Q&A entries: the answers the team wrote, given before any passage search to a visitor question close
 * to one of their wordings. Search, pages, and (developers and above) add, edit, enable and delete. Opened
 * with `?ask=` (wordings one per line, from "Answer this"), the new-entry form starts filled with them.
 */
export function QaPage() {
  return <BotFrame>{(bot) => <QaEntries bot={bot} />}</BotFrame>;
}

function QaEntries({ bot }: { bot: Bot }) {
  const { client, workspace } = useConsole();
  const { path, query, route } = useLocation();
  const me = useOwnMember();
  const mayWrite = mayWriteQa(me.data?.role);
  const asked = wordingsOf(query[ASK_PARAM] ?? '');
  const [adding, setAdding] = useState(false);
  const [done, setDone] = useState<string | undefined>(undefined);
  const [search, setSearch] = useState('');
  const settled = useSettled(search.trim(), 250);
  // The pages' tokens belong to the search they were handed out for.
  const pager = usePager(settled);
  const token = pager.token;
  const page = useLoad(['qa', workspace?.id, bot.id, settled, token], () =>
    client.listQaEntries({
      id: bot.id,
      pageSize: PAGE_SIZE,
      ...(settled ? { search: settled } : {}),
      ...(token ? { nextToken: token } : {}),
    }),
  );
  const formOpen = mayWrite && (adding || asked.length > 0);
  /** Closes the new-entry form (and drops the wordings it was opened with from the address). */
  const closeForm = () => {
    setAdding(false);
    if (asked.length > 0) route(path, true);
  };
  const changed = (message: string) => {
    setDone(message);
    page.reload();
  };

  return (
    <div class="stack">
      <h2>{t('section.qa')}</h2>
      <p class="muted">{t('qa.lead')}</p>
      {formOpen ? (
        <QaEntryForm
          key={asked.join('\n')}
          botId={bot.id}
          questions={asked}
          onSaved={(entry) => {
            closeForm();
            changed(t('qa.added', { question: entry.questions[0] ?? '' }));
          }}
          onCancel={closeForm}
        />
      ) : mayWrite ? (
        <div class="actions">
          <button
            type="button"
            class="primary"
            onClick={() => {
              setDone(undefined);
              setAdding(true);
            }}
          >
            {t('qa.add')}
          </button>
        </div>
      ) : null}
      <Notice done={done} />
      <Field
        id="qa-search"
        class="qa-search"
        type="search"
        label={t('qa.search')}
        value={search}
        maxLength={200}
        onValue={setSearch}
      />
      <ListState
        of={{ error: page.error, loading: page.loading, data: page.data?.entries }}
        loadingWords={t('qa.loading')}
        empty={
          pager.page > 1
            ? undefined
            : settled
              ? t('qa.noMatch')
              : mayWrite
                ? t('qa.emptyMayWrite')
                : t('qa.empty')
        }
        label={t('qa.entries')}
        row={(entry) => (
          <QaEntryRow key={entry.id} botId={bot.id} entry={entry} mayWrite={mayWrite} onChanged={changed} />
        )}
      />
      <Pager label={t('qa.pages')} pager={pager} nextToken={page.data?.meta.nextToken} />
    </div>
  );
}
