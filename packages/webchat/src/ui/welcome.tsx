import { format } from '../i18n.js';
import type { UiState } from '../store.js';
import { Markdown } from './markdown-view.js';
import { useTexts } from './texts.js';

/** Whether the suggested questions are offered: the conversation is shown from its start and nothing is said yet. */
export function offersSuggestions(state: UiState): boolean {
  return (
    state.fromStart &&
    state.messages.length === 0 &&
    Object.keys(state.streams).length === 0 &&
    !state.typing &&
    (state.config.suggestedQuestions?.length ?? 0) > 0
  );
}

/** The greeting (`greeting`, Markdown) as the bot's first words, above a conversation shown from its start; not a stored message. */
export function Greeting({ state }: { state: UiState }) {
  const s = useTexts();
  const { greeting, botName } = state.config;
  if (!state.fromStart || !greeting?.trim()) return null;
  return (
    <div class="pw-msg pw-greeting" data-from="bot" data-greeting="">
      <span class="pw-sr">{format(s.botSaid, { botName })}</span>
      <Markdown className="pw-bubble" source={greeting} />
    </div>
  );
}

/**
 * The suggested questions (`suggestedQuestions`) as buttons; a click sends the question as the visitor's text
 * message, exactly as typed in the composer. Shown only while `offersSuggestions`.
 */
export function Suggestions({
  state,
  onAsk,
}: {
  state: UiState;
  /** Sends the question (trimmed, as the composer sends what is typed). */
  onAsk: (question: string) => void;
}) {
  const s = useTexts();
  if (!offersSuggestions(state)) return null;
  return (
    <ul class="pw-suggestions" aria-label={s.suggestions}>
      {(state.config.suggestedQuestions ?? []).map((question) => (
        <li key={question}>
          <button
            type="button"
            class="pw-suggestion"
            disabled={state.busy}
            onClick={() => onAsk(question.trim())}
          >
            {question.trim()}
          </button>
        </li>
      ))}
    </ul>
  );
}
