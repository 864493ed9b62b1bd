import type { ListSessionsResponse } from '@parley/client';
import { useConsole } from '../context.js';
import { describeUserAgent, formatDateTime } from '../format.js';
import { useAction } from '../hooks.js';
import { t } from '../i18n.js';
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
      <h2>{t('account.sessions')}</h2>
      <p class="muted">{t('account.sessionsLead')}</p>
      <ListState
        of={{ error: error ?? action.error, loading: loading, data: sessions }}
        loadingWords={t('account.sessionsLoading')}
        label={t('account.sessions')}
        row={(session) => (
          <li key={session.id} class="list-row">
            <div>
              <p class="list-title" id={`session-${session.id}`}>
                {describeUserAgent(session.userAgent)}
                {session.current ? <span class="badge badge-active">{t('account.thisBrowser')}</span> : null}
              </p>
              <p class="muted">
                {t('account.sessionTimes', {
                  address: session.address || t('account.unknownAddress'),
                  lastSeen: formatDateTime(session.lastSeenAt),
                  ends: formatDateTime(session.expiresAt),
                })}
              </p>
            </div>
            {session.current ? null : (
              <button
                type="button"
                onClick={() => end(session)}
                disabled={action.pending}
                aria-describedby={`session-${session.id}`}
              >
                {t('account.endSession')}
              </button>
            )}
          </li>
        )}
      />
      <div class="actions">
        <button type="button" class="danger" onClick={endAll} disabled={action.pending}>
          {t('account.signOutEverywhere')}
        </button>
      </div>
    </div>
  );
}
