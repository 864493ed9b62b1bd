import { useConsole } from '../context.js';
import { useLoad } from '../hooks.js';
import { NameForm } from './name-form.js';
import { PasswordForm } from './password-form.js';
import { SessionsList } from './sessions-list.js';

/** The signed-in person: name, password, and where they are signed in. */
export function AccountPage() {
  const { account, client } = useConsole();
  const sessions = useLoad(() => client.listSessions().then((r) => r.sessions), [client]);
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
    </section>
  );
}
