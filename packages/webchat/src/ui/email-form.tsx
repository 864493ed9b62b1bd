import { useId, useState } from 'preact/hooks';
import type { UiActions } from '../ui-actions.js';
import { useTexts } from './texts.js';

/**
 * The e-mail form under the bot's message saying nobody could answer (human handoff, `metadata.form = "email"`):
 * the address is sent as the visitor's message, kept with the conversation for a person to write back.
 */
export function EmailForm({ actions }: { actions: UiActions }) {
  const s = useTexts();
  const id = useId();
  const [email, setEmail] = useState('');
  return (
    <form
      class="pw-comment pw-email"
      onSubmit={(e) => {
        e.preventDefault();
        const address = email.trim();
        if (address) actions.leaveEmail(address);
      }}
    >
      <label for={id}>{s.emailLabel}</label>
      <input
        id={id}
        type="email"
        required
        maxLength={254}
        autocomplete="email"
        value={email}
        onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
      />
      <div class="pw-actions">
        <button type="submit" class="pw-choice">
          {s.emailSend}
        </button>
      </div>
    </form>
  );
}
