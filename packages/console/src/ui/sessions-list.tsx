import type { ListSessionsResponse } from '@parley/client';
import { useConsole } from '../context.js';
import { describeUserAgent, formatDateTime } from '../format.js';
import { useAction } from '../hooks.js';
import { ListState } from './list-state.js';

type Session = ListSessionsResponse['sessions'][number];

/** Where the account is signed in: end one session, or all of them (this one too). */
export function SessionsList({
  sessions,
  loading,
  error,
  onChanged,
}: {
  sessions: Session[] | undefined;
  loading: boolean;
  error: string | undefined;
  onChanged(): void;
}) {
  const { client, signedOut } = useConsole();
  const action = useAction();

  async function end(session: Session) {
    const answer = await action.run(() => client.revokeSession({ id: session.id }));
    if (answer) onChanged();
  }
  async function endAll() {
    const answer = await action.run(() => client.revokeAllSessions());
    if (answer) signedOut();
  }

  return (
    <div class="card stack">
      <h2>Sessions</h2>
      <p class="muted">The browsers signed in to your account. A session ends after a while unused.</p>
      <ListState
        of={{ error: error ?? action.error, loading: loading, data: sessions }}
        loadingWords="Loading sessions…"
        label="Sessions"
        row={(session) => (
          <li key={session.id} class="list-row">
            <div>
              <p class="list-title" id={`session-${session.id}`}>
                {describeUserAgent(session.userAgent)}
                {session.current ? <span class="badge badge-active">This browser</span> : null}
              </p>
              <p class="muted">
                {session.address || 'Unknown address'} · last active {formatDateTime(session.lastSeenAt)} ·
                ends {formatDateTime(session.expiresAt)}
              </p>
            </div>
            {session.current ? null : (
              <button
                type="button"
                onClick={() => end(session)}
                disabled={action.pending}
                aria-describedby={`session-${session.id}`}
              >
                End session
              </button>
            )}
          </li>
        )}
      />
      <div class="actions">
        <button type="button" class="danger" onClick={endAll} disabled={action.pending}>
          Sign out everywhere
        </button>
      </div>
    </div>
  );
}
