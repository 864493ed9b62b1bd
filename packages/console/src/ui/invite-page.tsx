import type { Account } from '@parley/client';
import { useState } from 'preact/hooks';
import { anonymousClient, describeError } from '../api.js';
import { useForm } from '../form.js';
import { t } from '../i18n.js';
import { Field, PASSWORD_LENGTH, PasswordField } from './field.js';
import { Notice } from './notice.js';
import { SignInPage } from './sign-in-page.js';

/**
 * `/console/invite/{code}`, reachable signed out: the invitee picks a name and password and joins (the
 * one-time code is the proof; an e-mail that has an account joins with its own password), then signs in.
 */
export function InvitePage({ code, onSignedIn }: { code: string; onSignedIn(account: Account): void }) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [joined, setJoined] = useState<{ email: string; name: string } | undefined>(undefined);
  const form = useForm({ name: '', password: '' }, async ({ name, password }) => {
    setError(undefined);
    try {
      const answer = await anonymousClient().acceptInvitation(
        { code, displayName: name.trim(), password },
        { retry: { attempts: 1 } },
      );
      // The answer is the same whether or not an account held the e-mail: signing in tells.
      setJoined({ email: answer.email, name: name.trim() });
    } catch (failure) {
      setError(describeError(failure));
    }
  });
  const name = form.field('name');
  const password = form.field('password');
  const pending = form.submitting;

  if (joined) {
    return (
      <SignInPage
        onSignedIn={onSignedIn}
        email={joined.email}
        notice={t('invite.welcome', { name: joined.name })}
      />
    );
  }
  return (
    <main class="center">
      <form class="card sign-in" onSubmit={form.submit}>
        <h1>{t('invite.joinTitle')}</h1>
        <p>{t('invite.joinLead')}</p>
        <Field
          id="invite-name"
          label={t('invite.name')}
          autocomplete="name"
          required
          maxLength={200}
          {...name}
        />
        <PasswordField
          id="invite-password"
          label={t('signIn.password')}
          kind="new"
          {...password}
          hint={t('invite.passwordHint')}
        />
        <Notice error={error} />
        <button
          type="submit"
          class="primary"
          disabled={pending || name.value.trim() === '' || password.value.length < PASSWORD_LENGTH.min}
        >
          {pending ? t('invite.joining') : t('invite.join')}
        </button>
      </form>
    </main>
  );
}
