import { useConsole } from '../context.js';
import { useAction } from '../hooks.js';
import { t } from '../i18n.js';

/** Ends this browser's session (the server clears the cookie), then shows Sign in. */
export function SignOutButton() {
  const { client, signedOut } = useConsole();
  const { pending, error, run } = useAction();
  async function signOut() {
    const done = await run(() => client.signOut());
    if (done) signedOut();
  }
  return (
    <button type="button" class="quiet" onClick={signOut} disabled={pending} title={error}>
      {t('signOut')}
    </button>
  );
}
