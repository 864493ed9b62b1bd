import type { BotConversationCounts, ListBotConversationsInput } from '@parley/client';
import { formatNumber } from '../../format.js';
import { type MessageKey, t } from '../../i18n.js';

/** The tabs of the inbox desk. */
export type DeskTab = 'waiting' | 'mine' | 'all' | 'resolved';

type Counts = BotConversationCounts['counts'];

/** Each tab: its name, the list's filter, how it is ordered, and what it says when empty. */
export const DESK_TABS: Readonly<
  Record<
    DeskTab,
    {
      label: MessageKey;
      filter: Pick<ListBotConversationsInput, 'state' | 'assignedTo'>;
      order: MessageKey;
      empty: MessageKey;
    }
  >
> = {
  waiting: {
    label: 'desk.waiting',
    filter: { state: 'pending' },
    order: 'desk.waitingOrder',
    empty: 'desk.waitingEmpty',
  },
  mine: {
    label: 'desk.mine',
    filter: { state: 'assigned', assignedTo: 'me' },
    order: 'desk.mineOrder',
    empty: 'desk.mineEmpty',
  },
  all: {
    label: 'desk.all',
    filter: {},
    order: 'desk.allOrder',
    empty: 'desk.allEmpty',
  },
  resolved: {
    label: 'desk.resolved',
    filter: { state: 'resolved' },
    order: 'desk.resolvedOrder',
    empty: 'desk.resolvedEmpty',
  },
};

const ORDER: readonly DeskTab[] = ['waiting', 'mine', 'all', 'resolved'];

/** The tab an address names (`?tab=`), All when none or an unknown one. */
export function tabOf(value: string | undefined): DeskTab {
  return ORDER.find((tab) => tab === value) ?? 'all';
}

/** The desk's tabs as links, each with its count (once known); the current one marked as the page. */
export function DeskTabs({
  current,
  counts,
  hrefOf,
}: {
  current: DeskTab;
  counts: Counts | undefined;
  hrefOf(tab: DeskTab): string;
}) {
  return (
    <nav class="desk-tabs" aria-label={t('desk.tabs')}>
      {ORDER.map((tab) => (
        <a key={tab} href={hrefOf(tab)} aria-current={tab === current ? 'page' : undefined}>
          {t(DESK_TABS[tab].label)}
          {counts ? (
            <span class="desk-count" data-tab={tab}>
              {' '}
              {formatNumber(counts[tab])}
            </span>
          ) : null}
        </a>
      ))}
    </nav>
  );
}
