import type { BotConversation } from '@parley/client';
import { formatDateTime } from '../../format.js';
import { CorrectionMark } from '../qa/answer-this.js';
import { readable } from './readable.js';

/** The path of a conversation's transcript in the Console. */
export function conversationPath(botId: string, conversationId: string): string {
  return `/console/bots/${encodeURIComponent(botId)}/conversations/${encodeURIComponent(conversationId)}`;
}

/**
 * One conversation of the inbox: what the visitor last asked (the link to its transcript), the latest
 * message when the bot had the last word, when, how many messages, and its flags. All as text.
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
  return (
    <li class="list-row inbox-row">
      <a href={conversationPath(botId, c.id)} class="list-title inbox-preview">
        {c.lastQuestion ?? (last ? readable(last.text) : 'No messages yet')}
      </a>
      {botLast && last ? (
        <span class="inbox-reply muted">
          <span class="inbox-who">Bot: </span>
          {readable(last.text)}
        </span>
      ) : null}
      <span class="inbox-meta">
        <time class="muted" dateTime={c.updatedAt}>
          {formatDateTime(c.updatedAt)}
        </time>
        <span class="muted">
          {c.messageCount} {c.messageCount === 1 ? 'message' : 'messages'}
        </span>
        {c.negativeFeedback ? <span class="badge badge-negative">Negative feedback</span> : null}
        {c.unanswered ? <span class="badge badge-unanswered">Not answered</span> : null}
        <CorrectionMark conversation={c} />
      </span>
    </li>
  );
}
