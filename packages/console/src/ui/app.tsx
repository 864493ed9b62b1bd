import type { Account } from '@parley/client';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { consoleClient, describeError, isSignedOut } from '../api.js';
import { consoleLanguage, onLanguageChange, t } from '../i18n.js';
import { InvitePage } from './invite-page.js';
import { Notice } from './notice.js';
import { titleOf, useDocumentTitle } from './page-title.js';
import { SignInPage } from './sign-in-page.js';
import { SignedIn } from './signed-in.js';

/**
 * Re-renders the Console after the member changes its language (the account page). The signed-in pages are
 * keyed by the language below: the router keeps a page's rendered tree, so they are drawn again in the new words.
 */
function useLanguageRenders(): void {
  const [, setRound] = useState(0);
  useEffect(() => onLanguageChange(() => setRound((n) => n + 1)), []);
}

/** The Console: Sign in until the session cookie names an account, then the signed-in pages. */
export function App() {
  /** undefined while asking the server who is signed in; null when nobody is. */
  const [account, setAccount] = useState<Account | null | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [round, setRound] = useState(0);
  // Stable, so that the signed-in pages do not load the workspaces again when the account's name changes.
  const signedOut = useCallback(() => setAccount(null), []);
  const { path, route } = useLocation();
  useLanguageRenders();
  const joinedThenSignedIn = useCallback(
    (next: Account) => {
      setAccount(next);
      route('/console/bots');
    },
    [route],
  );

  useEffect(() => {
    setFailure(undefined);
    consoleClient()
      .getAccount(undefined, { retry: { attempts: 1 } })
      .then(
        ({ account }) => setAccount(account),
        (error) => (isSignedOut(error) ? setAccount(null) : setFailure(describeError(error))),
      );
  }, [round]);

  // An invitation link works signed out: the one-time code is the proof.
  const invitation = /^\/console\/invite\/([^/]+)$/.exec(path);
  useDocumentTitle(
    invitation
      ? titleOf([t('title.join')])
      : account === null
        ? titleOf([t('title.signIn')])
        : account
          ? undefined
          : 'Parley',
  );
  if (invitation?.[1]) {
    return <InvitePage code={decodeURIComponent(invitation[1])} onSignedIn={joinedThenSignedIn} />;
  }
  if (account === undefined) {
    return (
      <main class="center">
        {failure ? (
          <div class="card">
            <h1>{t('app.title')}</h1>
            <Notice error={failure} />
            <button type="button" onClick={() => setRound((n) => n + 1)}>
              {t('app.tryAgain')}
            </button>
          </div>
        ) : (
          <>
            <h1 class="visually-hidden">{t('app.title')}</h1>
            <p role="status">{t('app.loading')}</p>
          </>
        )}
      </main>
    );
  }
  if (account === null) return <SignInPage onSignedIn={setAccount} />;
  return (
    <SignedIn key={consoleLanguage()} account={account} onAccount={setAccount} onSignedOut={signedOut} />
  );
}
