import type { ChatMessage } from '@parley/protocol';
import { format } from '../i18n.js';
import { initials } from '../initials.js';
import type { UiState } from '../store.js';
import type { UiActions } from '../ui-actions.js';
import { EmailForm } from './email-form.js';
import { Feedback } from './feedback.js';
import { Payload } from './payloads/payload.js';
import { useTexts } from './texts.js';

/** The name of the person who wrote a message (human handoff: `metadata.agent.name`). */
function agentName(message: ChatMessage): string | undefined {
  const agent = message.metadata?.agent;
  if (typeof agent !== 'object' || agent === null) return undefined;
  const name = (agent as { name?: unknown }).name;
  return typeof name === 'string' && name ? name : undefined;
}

/** One message of the log: who said it (for screen readers), its body, feedback and debug details. */
export function Message({
  message,
  state,
  actions,
  last,
  debug,
}: {
  message: ChatMessage;
  state: UiState;
  actions: UiActions;
  last: boolean;
  debug: unknown[] | undefined;
}) {
  const s = useTexts();
  // Only the server posts as a person (a visitor's own metadata names nobody).
  const agent = message.isBot ? agentName(message) : undefined;
  const from = agent ? 'agent' : message.isBot ? 'bot' : 'user';
  return (
    <div class="pw-msg" data-from={from} data-message-id={message.id} data-type={message.payload.type}>
      {agent ? (
        <span class="pw-agent">
          <span class="pw-initials" aria-hidden="true">
            {initials(agent)}
          </span>
          <span class="pw-sr">{format(s.personSaid, { name: agent })}</span>
          <span aria-hidden="true">{agent}</span>
        </span>
      ) : (
        <span class="pw-sr">
          {message.isBot ? format(s.botSaid, { botName: state.config.botName }) : s.youSaid}
        </span>
      )}
      <Payload payload={message.payload} actions={actions} last={last} />
      {last && message.isBot && message.metadata?.form === 'email' && <EmailForm actions={actions} />}
      <Feedback
        messageId={message.id}
        enabled={from === 'bot' && state.config.feedbackEnabled}
        given={state.feedback[message.id]}
        actions={actions}
      />
      {debug && state.config.adminKey && (
        <details class="pw-debug">
          <summary>{s.debug}</summary>
          <pre>{JSON.stringify(debug, null, 2)}</pre>
        </details>
      )}
    </div>
  );
}
