import type { Account } from '@parley/client';
import { useState } from 'preact/hooks';
import { consoleClient, describeError } from '../api.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

/**
 * Sign in with e-mail and password; the server sets the session cookie. `email` fills the e-mail in and
 * `notice` says what just happened (an invitation accepted).
 */
export function SignInPage({
  onSignedIn,
  email: knownEmail = '',
  notice,
}: {
  onSignedIn(account: Account): void;
  email?: string;
  notice?: string;
}) {
  const [email, setEmail] = useState(knownEmail);
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);

  async function submit(event: Event) {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      // One attempt: a 429 says when to try again, and the person decides.
      const { account } = await consoleClient().signIn({ email, password }, { retry: { attempts: 1 } });
      onSignedIn(account);
    } catch (failure) {
      setError(describeError(failure));
      setPending(false);
    }
  }

  return (
    <main class="center">
      <form class="card sign-in" onSubmit={submit}>
        <h1>Sign in to Parley</h1>
        <Notice done={notice} />
        <Field
          id="sign-in-email"
          label="Email"
          type="email"
          autocomplete="username"
          required
          value={email}
          onValue={setEmail}
        />
        <Field
          id="sign-in-password"
          label="Password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <Notice error={error} />
        <button type="submit" class="primary" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="hint">
          The first owner's password was printed when Parley first started (and is in bootstrap.json).
        </p>
      </form>
    </main>
  );
}
