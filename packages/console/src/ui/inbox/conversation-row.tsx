import type { BotConversation } from '@parley/client';
import { formatDateTime } from '../../format.js';

/** The path of a conversation's transcript in the Console. */
export function conversationPath(botId: string, conversationId: string): string {
  return `/console/bots/${encodeURIComponent(botId)}/conversations/${encodeURIComponent(conversationId)}`;
}

/** One conversation of the inbox: its latest message (as text), when, how many messages, and its flags. */
export function ConversationRow({
  botId,
  conversation: c,
}: {
  botId: string;
  conversation: BotConversation;
}) {
  const last = c.lastMessage;
  return (
    <li class="list-row inbox-row">
      <a href={conversationPath(botId, c.id)} class="list-title inbox-preview">
        {last ? (
          <>
            <span class="muted">{last.isBot ? 'Bot: ' : 'Visitor: '}</span>
            {last.text}
          </>
        ) : (
          'No messages yet'
        )}
      </a>
      <span class="inbox-meta">
        <time class="muted" dateTime={c.updatedAt}>
          {formatDateTime(c.updatedAt)}
        </time>
        <span class="muted">
          {c.messageCount} {c.messageCount === 1 ? 'message' : 'messages'}
        </span>
        {c.negativeFeedback ? <span class="badge badge-negative">Negative feedback</span> : null}
        {c.unanswered ? <span class="badge badge-unanswered">Not answered</span> : null}
      </span>
    </li>
  );
}
