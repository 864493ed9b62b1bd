import type { ListBotConversationsInput } from '@parley/client';
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useConsole } from '../../context.js';
import { useLoad, useSettled } from '../../hooks.js';
import { t } from '../../i18n.js';
import { BotFrame } from '../bot-frame.js';
import { Field } from '../field.js';
import { ListState } from '../list-state.js';
import { ConversationRow } from './conversation-row.js';
import { DeskAlerts } from './desk-alerts.js';
import { useDeskCounts, useDeskLive } from './desk-live.js';
import { DESK_TABS, type DeskTab, DeskTabs, tabOf } from './desk-tabs.js';
import { ExportButton } from './export-button.js';

/** Conversations shown at first, and how many more "Show more" adds. */
const PAGE = 25;

/** What the inbox shows, as its address says: `?tab=waiting&search=…&feedback=negative&unanswered=true`. */
interface View {
  tab: DeskTab;
  search: string;
  negative: boolean;
  unanswered: boolean;
}

/** The address of a view of the inbox (the tab left out when it is All). */
function addressOf(path: string, view: View): string {
  const params = new URLSearchParams();
  if (view.tab !== 'all') params.set('tab', view.tab);
  if (view.search) params.set('search', view.search);
  if (view.negative) params.set('feedback', 'negative');
  if (view.unanswered) params.set('unanswered', 'true');
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** The list's input for a view: each tab as the Admin API filters it. */
function inputOf(botId: string, view: View, limit: number): ListBotConversationsInput {
  return {
    id: botId,
    pageSize: Math.min(limit + 1, 100),
    ...DESK_TABS[view.tab].filter,
    ...(view.search ? { search: view.search } : {}),
    ...(view.negative ? { feedback: 'negative' as const } : {}),
    ...(view.unanswered ? { unanswered: true } : {}),
  };
}

/** The inbox desk: its tabs with their counts, search, filters, and the tab's conversations, live. */
function Inbox({ botId }: { botId: string }) {
  const { client, workspace } = useConsole();
  // The view lives in the address, so a tab or a search can be linked to and survives a reload.
  const { path, query, route } = useLocation();
  const view: View = {
    tab: tabOf(query.tab),
    search: (query.search ?? '').trim(),
    negative: query.feedback === 'negative',
    unanswered: query.unanswered === 'true',
  };
  const [limit, setLimit] = useState(PAGE);
  const [typed, setTyped] = useState(view.search);
  const settled = useSettled(typed.trim(), 300);
  const go = (next: Partial<View>) => {
    route(addressOf(path, { ...view, ...next }), true);
    setLimit(PAGE);
  };
  useEffect(() => {
    if (settled !== view.search) go({ search: settled });
  }, [settled]);
  useDeskLive(botId);
  const counts = useDeskCounts(botId);
  const list = useLoad(['conversations', workspace?.id, botId, view, limit], () =>
    client.listBotConversations(inputOf(botId, view, limit)).collect({ limit: limit + 1 }),
  );
  const toggle = (name: 'negative' | 'unanswered') => (event: Event) =>
    go({ [name]: (event.currentTarget as HTMLInputElement).checked });
  const narrowed = view.negative || view.unanswered || view.search !== '';
  const shown = list.data?.slice(0, limit);
  return (
    <div class="stack">
      <div class="inbox-head">
        <h2>{t('section.conversations')}</h2>
        <DeskAlerts waiting={counts.data?.waiting} />
      </div>
      <DeskTabs current={view.tab} counts={counts.data} hrefOf={(tab) => addressOf(path, { ...view, tab })} />
      <div class="inbox-head">
        <Field
          id="inbox-search"
          class="inbox-search"
          type="search"
          label={t('desk.search')}
          placeholder={t('desk.searchHint')}
          value={typed}
          onValue={setTyped}
        />
        <fieldset class="inbox-filters">
          <legend>{t('desk.showOnly')}</legend>
          <label>
            <input type="checkbox" checked={view.negative} onChange={toggle('negative')} />{' '}
            {t('desk.negative')}
          </label>
          <label>
            <input type="checkbox" checked={view.unanswered} onChange={toggle('unanswered')} />{' '}
            {t('desk.unanswered')}
          </label>
        </fieldset>
      </div>
      <ExportButton botId={botId} />
      <p class="muted">
        {t(DESK_TABS[view.tab].order)} {t('desk.live')}
      </p>
      <ListState
        of={{ ...list, data: shown }}
        loadingWords={t('desk.loading')}
        empty={narrowed ? t('desk.noMatch') : t(DESK_TABS[view.tab].empty)}
      >
        {(items) => (
          <>
            <ul class="list inbox-list" aria-label={t('section.conversations')}>
              {items.map((c) => (
                <ConversationRow key={c.id} botId={botId} conversation={c} />
              ))}
            </ul>
            {(list.data?.length ?? 0) > limit ? (
              <p>
                <button type="button" onClick={() => setLimit((n) => n + PAGE)}>
                  {t('desk.more')}
                </button>
              </p>
            ) : null}
          </>
        )}
      </ListState>
    </div>
  );
}

/** The Conversations section of a bot (`/console/bots/:id/conversations`). */
export function InboxPage() {
  return <BotFrame>{(bot) => <Inbox botId={bot.id} />}</BotFrame>;
}
