import { type Account, ApiError } from '@parley/client';
import { useState } from 'preact/hooks';
import { consoleClient, describeError } from '../api.js';
import { useForm } from '../form.js';
import { t } from '../i18n.js';
import { rememberSignedIn, signedInHereBefore } from '../remembered.js';
import { Field, PasswordField } from './field.js';
import { Notice } from './notice.js';

/**
 * Sign in with e-mail and password; the server sets the session cookie. `email` fills the e-mail in and
 * `notice` says what just happened (an invitation accepted). Where the first owner's password is found is said
 * only to a browser nobody signed in on yet and not reached from an invitation: a new member never needs it.
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
  const [error, setError] = useState<string | undefined>(undefined);
  // Stays true once signed in: the page is about to give way to the Console.
  const [signedIn, setSignedIn] = useState(false);
  const [firstVisit] = useState(() => !knownEmail && !signedInHereBefore());
  const form = useForm({ email: knownEmail, password: '' }, async ({ email, password }) => {
    setError(undefined);
    try {
      // One attempt: a 429 says when to try again, and the person decides.
      const { account } = await consoleClient().signIn({ email, password }, { retry: { attempts: 1 } });
      setSignedIn(true);
      rememberSignedIn();
      onSignedIn(account);
    } catch (failure) {
      // The one refusal of a wrong e-mail or password (401), in the Console's words; the others as any failure.
      setError(
        failure instanceof ApiError && failure.status === 401 ? t('signIn.refused') : describeError(failure),
      );
    }
  });
  const email = form.field('email');
  const password = form.field('password');
  const pending = form.submitting || signedIn;

  return (
    <main class="center">
      <form class="card sign-in" onSubmit={form.submit}>
        <h1>{t('signIn.title')}</h1>
        <Notice done={notice} />
        <Field
          id="sign-in-email"
          label={t('signIn.email')}
          type="email"
          autocomplete="username"
          required
          {...email}
        />
        <PasswordField id="sign-in-password" label={t('signIn.password')} kind="current" {...password} />
        <Notice error={error} />
        <button type="submit" class="primary" disabled={pending}>
          {pending ? t('signIn.pending') : t('signIn.submit')}
        </button>
        {firstVisit ? <p class="hint">{t('signIn.firstOwner')}</p> : null}
      </form>
    </main>
  );
}
