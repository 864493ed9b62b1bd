import type { BotConversationMessage } from '@parley/client';
import { useRoute } from 'preact-iso';
import { useConsole } from '../../context.js';
import { formatDateTime } from '../../format.js';
import { useLoad, useOwnMember } from '../../hooks.js';
import { t } from '../../i18n.js';
import { mayHandoff } from '../../roles.js';
import { BotFrame } from '../bot-frame.js';
import { Notice } from '../notice.js';
import { AnswerTheseQuestions } from '../qa/answer-this.js';
import { OwnerBadge } from './conversation-row.js';
import { deskKeys, useDeskLive } from './desk-live.js';
import { ExportButton } from './export-button.js';
import { HandoffDesk } from './handoff-desk.js';
import { Notes } from './notes.js';
import { TranscriptMessage } from './transcript-message.js';
import { VisitorDetails } from './visitor-details.js';

/** The most messages a transcript shows. */
const MAX_MESSAGES = 1_000;

/** What a transcript tells at a glance: when it started, how many messages, and its flags. */
function Summary({ messages }: { messages: BotConversationMessage[] }) {
  const first = messages[0];
  const negative = messages.some((m) => m.feedback?.value === 'negative');
  const unanswered = messages.some((m) => m.answer === 'not_found');
  return (
    <p class="inbox-meta">
      {first ? (
        <span class="muted">
          Started <time dateTime={first.createdAt}>{formatDateTime(first.createdAt)}</time>
        </span>
      ) : null}
      <span class="muted">
        {messages.length} {messages.length === 1 ? 'message' : 'messages'}, oldest first; new ones appear as
        they arrive
      </span>
      {negative ? <span class="badge badge-negative">{t('desk.negative')}</span> : null}
      {unanswered ? <span class="badge badge-unanswered">{t('desk.unanswered')}</span> : null}
    </p>
  );
}

/**
 * A conversation: who answers it and its visitor, its messages as a thread (oldest first), and for the roles
 * that answer conversations the desk; all followed live.
 */
function Transcript({ botId, conversationId }: { botId: string; conversationId: string }) {
  const { client, workspace } = useConsole();
  const me = useOwnMember();
  useDeskLive(botId);
  const conversation = useLoad(deskKeys.conversation(workspace?.id, botId, conversationId), () =>
    client.getBotConversation({ id: botId, conversationId }).then((r) => r.conversation),
  );
  const messages = useLoad(deskKeys.messages(workspace?.id, botId, conversationId), () =>
    client
      .listBotConversationMessages({ id: botId, conversationId, pageSize: 100 })
      .collect({ limit: MAX_MESSAGES }),
  );
  return (
    <div class="stack">
      <p>
        <a href={`/console/bots/${encodeURIComponent(botId)}/conversations`}>{t('conversation.back')}</a>
      </p>
      <div class="inbox-head">
        <h2>{t('conversation.title')}</h2>
        {conversation.data ? <OwnerBadge conversation={conversation.data} /> : null}
      </div>
      {conversation.data?.visitor ? <VisitorDetails visitor={conversation.data.visitor} /> : null}
      <ExportButton botId={botId} conversationId={conversationId} />
      <Notice error={messages.error} />
      {messages.data === undefined ? (
        messages.loading ? (
          <p role="status">{t('conversation.loading')}</p>
        ) : null
      ) : messages.data.length === 0 ? (
        <p class="empty">{t('conversation.empty')}</p>
      ) : (
        <>
          <Summary messages={messages.data} />
          <ol class="thread" aria-label={t('conversation.messages')}>
            {messages.data.map((m) => (
              <TranscriptMessage key={m.id} botId={botId} message={m} />
            ))}
          </ol>
          <AnswerTheseQuestions botId={botId} conversationId={conversationId} messages={messages.data} />
        </>
      )}
      {mayHandoff(me.data?.role) ? <HandoffDesk botId={botId} conversationId={conversationId} /> : null}
      <Notes botId={botId} conversationId={conversationId} mayWrite={mayHandoff(me.data?.role)} />
    </div>
  );
}

/** A conversation's transcript (`/console/bots/:id/conversations/:conversationId`). */
export function ConversationPage() {
  const { params } = useRoute();
  const conversationId = params.conversationId ?? '';
  return <BotFrame>{(bot) => <Transcript botId={bot.id} conversationId={conversationId} />}</BotFrame>;
}
