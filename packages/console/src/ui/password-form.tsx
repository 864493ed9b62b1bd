import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useAction } from '../hooks.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

const MIN_LENGTH = 12;

/** Changes the password; the server ends every other session of the account. */
export function PasswordForm({ onChanged }: { onChanged(): void }) {
  const { client } = useConsole();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const { pending, error, run } = useAction();

  async function submit(event: Event) {
    event.preventDefault();
    setSaved(undefined);
    setMismatch(undefined);
    if (next !== repeat) {
      setMismatch('The two new passwords differ. Type the same one twice.');
      return;
    }
    const answer = await run(() => client.changePassword({ current, new: next }));
    if (!answer) return;
    setCurrent('');
    setNext('');
    setRepeat('');
    const others = answer.revokedSessions;
    setSaved(
      `Password changed. ${others === 0 ? 'No other session was open.' : `${others} other ${others === 1 ? 'session was' : 'sessions were'} signed out.`}`,
    );
    onChanged();
  }

  return (
    <form class="card stack" onSubmit={submit}>
      <h2>Password</h2>
      <Field
        id="current-password"
        label="Current password"
        type="password"
        autocomplete="current-password"
        required
        value={current}
        onValue={setCurrent}
      />
      <Field
        id="new-password"
        label="New password"
        type="password"
        autocomplete="new-password"
        required
        minLength={MIN_LENGTH}
        maxLength={256}
        value={next}
        onValue={setNext}
        hint={`At least ${MIN_LENGTH} characters. Your other sessions are signed out when it changes.`}
      />
      <Field
        id="repeat-password"
        label="Repeat the new password"
        type="password"
        autocomplete="new-password"
        required
        value={repeat}
        onValue={setRepeat}
      />
      <div class="actions">
        <button type="submit" class="primary" disabled={pending}>
          Change password
        </button>
      </div>
      <Notice error={mismatch ?? error} done={saved} />
    </form>
  );
}
