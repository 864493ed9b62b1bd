import type { UiState } from '../store.js';
import type { UiActions } from '../ui-actions.js';
import { debugByMessage } from './debug-entries.js';
import type { LogScroll } from './hooks/stick-to-bottom.js';
import { Markdown } from './markdown-view.js';
import { Message } from './message.js';
import { useTexts } from './texts.js';
import { Typing } from './typing.js';
import { Greeting, Suggestions } from './welcome.js';

/**
 * The message log (an aria-live region): the greeting, messages, replies being streamed, typing, the suggested
 * questions of an empty conversation, and a "New messages" button.
 */
export function MessageList({
  state,
  actions,
  scroll,
  onAsk,
}: {
  state: UiState;
  actions: UiActions;
  scroll: LogScroll;
  /** Sends a suggested question as the visitor's message. */
  onAsk: (question: string) => void;
}) {
  const s = useTexts();
  const last = state.messages[state.messages.length - 1];
  const debug = state.config.adminKey ? debugByMessage(state) : {};
  return (
    <div class="pw-log-wrap">
      <div
        ref={scroll.log}
        class="pw-log"
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        aria-label={s.messages}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard (WCAG 2.1.1)
        tabIndex={0}
        onScroll={scroll.onScroll}
      >
        <Greeting state={state} />
        {state.messages.map((m) => (
          <Message message={m} state={state} actions={actions} last={m === last} debug={debug[m.id]} />
        ))}
        {Object.entries(state.streams).map(([id, partial]) => (
          <div class="pw-msg" data-from="bot" data-stream-id={id}>
            <Markdown className="pw-bubble" source={partial} />
          </div>
        ))}
        {state.typing && (
          <Typing name={state.typist ?? state.config.botName} person={state.typist !== undefined} />
        )}
        <Suggestions state={state} onAsk={onAsk} />
      </div>
      {scroll.unseen && (
        <button type="button" class="pw-new" onClick={scroll.toBottom}>
          {s.newMessages} ↓
        </button>
      )}
    </div>
  );
}
