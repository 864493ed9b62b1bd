import type { BotConversation } from '@parley/client';
import { formatCount, formatDateTime } from '../../format.js';
import { t } from '../../i18n.js';
import { Markdown } from '../markdown.js';
import { CorrectionMark } from '../qa/answer-this.js';
import { readable } from './readable.js';

/** The path of a conversation's transcript in the Console. */
export function conversationPath(botId: string, conversationId: string): string {
  return `/console/bots/${encodeURIComponent(botId)}/conversations/${encodeURIComponent(conversationId)}`;
}

/** Who answers a conversation, as a badge: waiting, a person's name, resolved (none while the bot does). */
export function OwnerBadge({
  conversation: c,
}: {
  conversation: Pick<BotConversation, 'state' | 'assignedTo'>;
}) {
  if (c.state === 'pending') return <span class="badge badge-waiting">{t('handoff.waiting')}</span>;
  if (c.state === 'assigned')
    return (
      <span class="badge badge-assigned">
        {t('desk.answeredBy', { name: c.assignedTo?.name || t('handoff.aPerson') })}
      </span>
    );
  if (c.state === 'resolved') return <span class="badge badge-resolved">{t('desk.resolvedBadge')}</span>;
  return null;
}

/**
 * One conversation of the inbox: what the visitor last asked (the link to its transcript), the latest
 * message when the bot or a person had the last word (Markdown as the visitor saw it), the visitor, when, how
 * many messages, who answers, and its flags.
 */
export function ConversationRow({
  botId,
  conversation: c,
}: {
  botId: string;
  conversation: BotConversation;
}) {
  const last = c.lastMessage;
  const botLast = last?.isBot === true;
  const visitor = c.visitor?.name ?? c.visitor?.email;
  return (
    <li class="list-row inbox-row" data-state={c.state}>
      <a href={conversationPath(botId, c.id)} class="list-title inbox-preview">
        {c.lastQuestion ?? (last ? readable(last.text) : t('desk.noMessages'))}
      </a>
      {botLast && last ? (
        <div class="inbox-reply muted">
          <span class="inbox-who">{t('desk.replyLabel')}</span>
          <Markdown text={last.text} class="inbox-reply-text" />
        </div>
      ) : null}
      <span class="inbox-meta">
        {visitor ? <span class="inbox-visitor">{visitor}</span> : null}
        <OwnerBadge conversation={c} />
        {c.state === 'pending' && c.waitingSince ? (
          <span class="muted">
            {t('desk.waitingSince')} <time dateTime={c.waitingSince}>{formatDateTime(c.waitingSince)}</time>
          </span>
        ) : (
          <time class="muted" dateTime={c.updatedAt}>
            {formatDateTime(c.updatedAt)}
          </time>
        )}
        <span class="muted">{formatCount('count.message', 'count.messages', c.messageCount)}</span>
        {c.negativeFeedback ? <span class="badge badge-negative">{t('desk.negative')}</span> : null}
        {c.unanswered ? <span class="badge badge-unanswered">{t('desk.unanswered')}</span> : null}
        <CorrectionMark conversation={c} />
      </span>
    </li>
  );
}
