import type { ListBotConversationsInput } from '@parley/client';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useConsole } from '../../context.js';
import { useLoad } from '../../hooks.js';
import { BotFrame } from '../bot-frame.js';
import { Notice } from '../notice.js';
import { ConversationRow } from './conversation-row.js';

/** How often the inbox and a transcript ask for what is new, in milliseconds. */
export const LIVE_EVERY_MS = 3_000;
/** Conversations shown at first, and how many more "Show more" adds. */
const PAGE = 25;

/** The filters of the inbox, as the Admin API takes them. */
interface Filters {
  negative: boolean;
  unanswered: boolean;
}

/** The bot's conversations, most recent activity first, refreshed while shown; filters and "Show more". */
function Inbox({ botId }: { botId: string }) {
  const { client, workspace } = useConsole();
  // The filters live in the address (`?feedback=negative&unanswered=true`, as the Admin API names them), so a
  // filtered inbox can be linked to and survives a reload.
  const { path, query, route } = useLocation();
  const filters: Filters = {
    negative: query.feedback === 'negative',
    unanswered: query.unanswered === 'true',
  };
  const [limit, setLimit] = useState(PAGE);
  const input: ListBotConversationsInput = {
    id: botId,
    pageSize: Math.min(limit + 1, 100),
    ...(filters.negative ? { feedback: 'negative' as const } : {}),
    ...(filters.unanswered ? { unanswered: true } : {}),
  };
  const list = useLoad(
    ['conversations', workspace?.id, botId, filters, limit],
    () => client.listBotConversations(input).collect({ limit: limit + 1 }),
    { every: LIVE_EVERY_MS },
  );
  const toggle = (name: keyof Filters) => (event: Event) => {
    const next = { ...filters, [name]: (event.currentTarget as HTMLInputElement).checked };
    const params = new URLSearchParams();
    if (next.negative) params.set('feedback', 'negative');
    if (next.unanswered) params.set('unanswered', 'true');
    const search = params.toString();
    route(search ? `${path}?${search}` : path, true);
    setLimit(PAGE);
  };
  const filtered = filters.negative || filters.unanswered;
  const shown = list.data?.slice(0, limit);
  return (
    <div class="stack">
      <div class="inbox-head">
        <h2>Conversations</h2>
        <fieldset class="inbox-filters">
          <legend>Show only</legend>
          <label>
            <input type="checkbox" checked={filters.negative} onChange={toggle('negative')} /> Negative
            feedback
          </label>
          <label>
            <input type="checkbox" checked={filters.unanswered} onChange={toggle('unanswered')} /> Not
            answered
          </label>
        </fieldset>
      </div>
      <p class="muted">Most recent activity first; new messages appear here as they arrive.</p>
      <Notice error={list.error} />
      {shown === undefined ? (
        list.loading ? (
          <p role="status">Loading conversations…</p>
        ) : null
      ) : shown.length === 0 ? (
        <p class="empty">
          {filtered
            ? 'No conversation matches these filters. Clear them to see every conversation.'
            : 'No conversations yet. Open the hosted chat or embed the webchat (Webchat tab) and ask the bot something: conversations appear here as they happen.'}
        </p>
      ) : (
        <>
          <ul class="list inbox-list" aria-label="Conversations">
            {shown.map((c) => (
              <ConversationRow key={c.id} botId={botId} conversation={c} />
            ))}
          </ul>
          {(list.data?.length ?? 0) > limit ? (
            <p>
              <button type="button" onClick={() => setLimit((n) => n + PAGE)}>
                Show more
              </button>
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}

/** The Conversations section of a bot (`/console/bots/:id/conversations`). */
export function InboxPage() {
  return <BotFrame>{(bot) => <Inbox botId={bot.id} />}</BotFrame>;
}
