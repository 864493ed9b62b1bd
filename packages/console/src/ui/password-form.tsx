import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useForm } from '../form.js';
import { useAction } from '../hooks.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

const MIN_LENGTH = 12;
const EMPTY = { current: '', next: '', repeat: '' };

/** Changes the password; the server ends every other session of the account. */
export function PasswordForm({ onChanged }: { onChanged(): void }) {
  const { client } = useConsole();
  const [mismatch, setMismatch] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const { pending, error, run } = useAction();
  const form = useForm(EMPTY, async ({ current, next, repeat }) => {
    setSaved(undefined);
    setMismatch(undefined);
    if (next !== repeat) {
      setMismatch('The two new passwords differ. Type the same one twice.');
      return;
    }
    const answer = await run(() => client.changePassword({ current, new: next }));
    if (!answer) return;
    form.reset(EMPTY);
    const others = answer.revokedSessions;
    setSaved(
      `Password changed. ${others === 0 ? 'No other session was open.' : `${others} other ${others === 1 ? 'session was' : 'sessions were'} signed out.`}`,
    );
    onChanged();
  });
  const current = form.field('current');
  const next = form.field('next');
  const repeat = form.field('repeat');

  return (
    <form class="card stack" onSubmit={form.submit}>
      <h2>Password</h2>
      <Field
        id="current-password"
        label="Current password"
        type="password"
        autocomplete="current-password"
        required
        {...current}
      />
      <Field
        id="new-password"
        label="New password"
        type="password"
        autocomplete="new-password"
        required
        minLength={MIN_LENGTH}
        maxLength={256}
        {...next}
        hint={`At least ${MIN_LENGTH} characters. Your other sessions are signed out when it changes.`}
      />
      <Field
        id="repeat-password"
        label="Repeat the new password"
        type="password"
        autocomplete="new-password"
        required
        {...repeat}
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
