import type { UiActions } from '../../ui-actions.js';
import { Markdown } from '../markdown-view.js';

/** A question with one button per option; the buttons show only under the last message. */
export function Choice({
  text,
  options,
  actions,
  last,
}: {
  text: string;
  options: { label: string; value: string }[];
  actions: UiActions;
  last: boolean;
}) {
  return (
    <div>
      {text && <Markdown className="pw-bubble" source={text} />}
      {last && (
        <div class="pw-actions">
          {options.map((o) => (
            <button
              type="button"
              class="pw-choice"
              onClick={() => actions.sendPayload({ type: 'text', text: o.label, value: o.value })}
            >
              {o.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
