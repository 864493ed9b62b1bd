import type { Account } from '@parley/client';
import { useState } from 'preact/hooks';
import { anonymousClient, describeError } from '../api.js';
import { Field } from './field.js';
import { Notice } from './notice.js';
import { SignInPage } from './sign-in-page.js';

/**
 * `/console/invite/{code}`, reachable signed out: the invitee picks a name and password and joins (the
 * one-time code is the proof), then signs in.
 */
export function InvitePage({ code, onSignedIn }: { code: string; onSignedIn(account: Account): void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [joined, setJoined] = useState<Account | undefined>(undefined);

  async function submit(event: Event) {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      const answer = await anonymousClient().acceptInvitation(
        { code, displayName: name.trim(), password },
        { retry: { attempts: 1 } },
      );
      setJoined(answer.account);
    } catch (failure) {
      setError(describeError(failure));
      setPending(false);
    }
  }

  if (joined) {
    return (
      <SignInPage
        onSignedIn={onSignedIn}
        email={joined.email}
        notice={`Welcome, ${joined.displayName}: you joined the workspace. Now sign in.`}
      />
    );
  }
  return (
    <main class="center">
      <form class="card sign-in" onSubmit={submit}>
        <h1>Join Parley</h1>
        <p>You were invited to a workspace. Choose the name your team sees and a password.</p>
        <Field
          id="invite-name"
          label="Name"
          autocomplete="name"
          required
          maxLength={200}
          value={name}
          onValue={setName}
        />
        <Field
          id="invite-password"
          label="Password"
          type="password"
          autocomplete="new-password"
          required
          minLength={12}
          maxLength={256}
          value={password}
          onValue={setPassword}
          hint="At least 12 characters."
        />
        <Notice error={error} />
        <button
          type="submit"
          class="primary"
          disabled={pending || name.trim() === '' || password.length < 12}
        >
          {pending ? 'Joining…' : 'Join'}
        </button>
      </form>
    </main>
  );
}
