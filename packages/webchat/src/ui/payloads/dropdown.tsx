import { useRef, useState } from 'preact/hooks';
import type { UiActions } from '../../ui-actions.js';
import { Markdown } from '../markdown-view.js';
import { useTexts } from '../texts.js';

/** A question with a select of options and a Send button (under the last message only). */
export function Dropdown({
  text,
  options,
  actions,
}: {
  text: string;
  options: { label: string; value: string }[];
  actions: UiActions;
}) {
  const [value, setValue] = useState('');
  const s = useTexts();
  const id = useRef(`pw-dd-${Math.random().toString(36).slice(2, 8)}`).current;
  return (
    <div>
      {text && <Markdown className="pw-bubble" source={text} />}
      <div class="pw-actions">
        <label class="pw-sr" for={id}>
          {s.chooseOption}
        </label>
        <select id={id} value={value} onChange={(e) => setValue((e.target as HTMLSelectElement).value)}>
          <option value="">{s.choose}</option>
          {options.map((o) => (
            <option value={o.value}>{o.label}</option>
          ))}
        </select>
        <button
          type="button"
          class="pw-choice"
          disabled={!value}
          onClick={() => {
            const option = options.find((o) => o.value === value);
            if (option) actions.sendPayload({ type: 'text', text: option.label, value: option.value });
          }}
        >
          {s.send}
        </button>
      </div>
    </div>
  );
}
