import type { ChatMessage } from '@parley/protocol';
import { format } from '../i18n.js';
import type { UiState } from '../store.js';
import type { UiActions } from '../ui-actions.js';
import { Feedback } from './feedback.js';
import { Payload } from './payloads/payload.js';
import { useTexts } from './texts.js';

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
  const from = message.isBot ? 'bot' : 'user';
  return (
    <div class="pw-msg" data-from={from} data-message-id={message.id} data-type={message.payload.type}>
      <span class="pw-sr">
        {message.isBot ? format(s.botSaid, { botName: state.config.botName }) : s.youSaid}
      </span>
      <Payload payload={message.payload} actions={actions} last={last} />
      <Feedback
        messageId={message.id}
        enabled={message.isBot && state.config.feedbackEnabled}
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
