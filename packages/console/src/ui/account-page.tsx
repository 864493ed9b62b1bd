import { useConsole } from '../context.js';
import { useLoad } from '../hooks.js';
import { AccessTokens } from './access-tokens.js';
import { NameForm } from './name-form.js';
import { PasswordForm } from './password-form.js';
import { SessionsList } from './sessions-list.js';

const PAT_WORDS = {
  title: 'Personal access tokens',
  intro:
    'A token lets a script, the CLI or the client call the Admin API as you, with your role in each workspace. Send it as a bearer token.',
  noun: 'token',
} as const;

/** The signed-in person: name, password, where they are signed in, and their personal access tokens. */
export function AccountPage() {
  const { account, client } = useConsole();
  const sessions = useLoad(['account', 'sessions'], () => client.listSessions().then((r) => r.sessions));
  return (
    <section class="stack">
      <div class="page-head">
        <h1>Account</h1>
        <p class="muted">Signed in as {account.email}</p>
      </div>
      <NameForm />
      <PasswordForm onChanged={sessions.reload} />
      <SessionsList
        sessions={sessions.data}
        loading={sessions.loading}
        error={sessions.error}
        onChanged={sessions.reload}
      />
      <AccessTokens
        id="pat"
        words={PAT_WORDS}
        list={() => client.listPersonalAccessTokens().then((r) => r.pats)}
        create={(input) => client.createPersonalAccessToken(input).then((r) => r.pat)}
        revoke={(token) => client.deletePersonalAccessToken({ id: token.id })}
        mayChange
        queryKey={['account', 'pats']}
      />
    </section>
  );
}
