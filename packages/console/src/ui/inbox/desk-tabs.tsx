import type { BotConversationCounts, ListBotConversationsInput } from '@parley/client';

/** The tabs of the inbox desk. */
export type DeskTab = 'waiting' | 'mine' | 'all' | 'resolved';

type Counts = BotConversationCounts['counts'];

/** Each tab: its name, the list's filter, how it is ordered, and what it says when empty. */
export const DESK_TABS: Readonly<
  Record<
    DeskTab,
    {
      label: string;
      filter: Pick<ListBotConversationsInput, 'state' | 'assignedTo'>;
      order: string;
      empty: string;
    }
  >
> = {
  waiting: {
    label: 'Waiting',
    filter: { state: 'pending' },
    order: 'Visitors waiting for a person, the longest waiting first.',
    empty: 'Nobody is waiting for a person.',
  },
  mine: {
    label: 'Mine',
    filter: { state: 'assigned', assignedTo: 'me' },
    order: 'Conversations you answer, most recent activity first.',
    empty: 'No conversation is assigned to you. Take one over from Waiting or All.',
  },
  all: {
    label: 'All',
    filter: {},
    order: 'Every conversation, most recent activity first.',
    empty:
      'No conversations yet. Open the hosted chat or embed the webchat (Webchat tab) and ask the bot something: conversations appear here as they happen.',
  },
  resolved: {
    label: 'Resolved',
    filter: { state: 'resolved' },
    order: 'Conversations a person resolved (the bot answers them again), most recent activity first.',
    empty: 'No conversation was resolved by a person yet.',
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
    <nav class="desk-tabs" aria-label="Inbox tabs">
      {ORDER.map((tab) => (
        <a key={tab} href={hrefOf(tab)} aria-current={tab === current ? 'page' : undefined}>
          {DESK_TABS[tab].label}
          {counts ? (
            <span class="desk-count" data-tab={tab}>
              {' '}
              {counts[tab]}
            </span>
          ) : null}
        </a>
      ))}
    </nav>
  );
}
