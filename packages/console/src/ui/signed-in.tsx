import type { Account, Workspace } from '@parley/client';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { Route, Router, useLocation } from 'preact-iso';
import { consoleClient, describeError, isSignedOut } from '../api.js';
import { ConsoleContext, type ConsoleState } from '../context.js';
import { t } from '../i18n.js';
import { createQueryClient, QueryClientContext } from '../query.js';
import { rememberedWorkspace, rememberWorkspace } from '../remembered.js';
import { BotPage } from './bot-page.js';
import { BotsPage } from './bots-page.js';
import {
  AccountPage,
  AuditPage,
  ConversationPage,
  DesignerPage,
  FilePage,
  FilesPage,
  InboxPage,
  InsightsPage,
  KnowledgeBasePage,
  KnowledgePage,
  LogsPage,
  PlaygroundPage,
  QaPage,
  SettingsPage,
  TeamPage,
  UsagePage,
} from './lazy-pages.js';
import { NotFoundPage } from './not-found-page.js';
import { Notice } from './notice.js';
import { Shell } from './shell.js';

/** The signed-in Console: the account's workspaces, the chosen one, and the pages. */
export function SignedIn({
  account,
  onAccount,
  onSignedOut,
}: {
  account: Account;
  onAccount(account: Account): void;
  onSignedOut(): void;
}) {
  const [workspaces, setWorkspaces] = useState<Workspace[] | undefined>(undefined);
  const [chosen, setChosen] = useState<string | undefined>(rememberedWorkspace());
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const { route } = useLocation();

  useEffect(() => {
    consoleClient()
      .list.workspaces()
      .collect()
      .then(setWorkspaces, (error) =>
        isSignedOut(error) ? onSignedOut() : setFailure(describeError(error)),
      );
  }, [onSignedOut]);

  const workspace = workspaces?.find((w) => w.id === chosen) ?? workspaces?.[0];
  const client = useMemo(() => consoleClient(workspace?.id), [workspace?.id]);
  const signedOut = useCallback(() => {
    onSignedOut();
    route('/console/');
  }, [onSignedOut, route]);
  // One cache per signed-in session: signing out drops it with this component, so nothing cached for one
  // person is ever shown to the next.
  const [queries] = useState(() => createQueryClient(signedOut));
  useEffect(() => {
    queries.mount();
    return () => {
      queries.unmount();
      queries.clear();
    };
  }, [queries]);
  const chooseWorkspace = useCallback((id: string) => {
    rememberWorkspace(id);
    setChosen(id);
  }, []);
  const workspaceChanged = useCallback((changed: Workspace) => {
    setWorkspaces((list) => list?.map((w) => (w.id === changed.id ? { ...w, ...changed } : w)));
  }, []);
  const state: ConsoleState = useMemo(
    () => ({
      account,
      client,
      workspace,
      workspaces: workspaces ?? [],
      chooseWorkspace,
      workspaceChanged,
      accountChanged: onAccount,
      signedOut,
    }),
    [account, client, workspace, workspaces, chooseWorkspace, workspaceChanged, onAccount, signedOut],
  );

  if (!workspaces) {
    return (
      <main class="center">
        <h1 class="visually-hidden">{t('app.title')}</h1>
        {failure ? <Notice error={failure} /> : <p role="status">{t('app.loadingWorkspaces')}</p>}
      </main>
    );
  }
  return (
    <QueryClientContext.Provider value={queries}>
      <ConsoleContext.Provider value={state}>
        <Shell>
          <ConsoleRoutes />
        </Shell>
      </ConsoleContext.Provider>
    </QueryClientContext.Provider>
  );
}

/** Every Console address and its page (the pages past the first screen load on demand: lazy-pages.ts). */
function ConsoleRoutes() {
  return (
    <Router>
      <Route path="/console/" component={BotsPage} />
      <Route path="/console/bots" component={BotsPage} />
      <Route path="/console/bots/:id" component={BotPage} />
      <Route path="/console/bots/:id/knowledge" component={KnowledgePage} />
      <Route path="/console/bots/:id/knowledge/:kbId" component={KnowledgeBasePage} />
      <Route path="/console/bots/:id/files" component={FilesPage} />
      <Route path="/console/bots/:id/files/:fileId" component={FilePage} />
      <Route path="/console/bots/:id/playground" component={PlaygroundPage} />
      <Route path="/console/bots/:id/webchat" component={DesignerPage} />
      <Route path="/console/bots/:id/conversations" component={InboxPage} />
      <Route path="/console/bots/:id/conversations/:conversationId" component={ConversationPage} />
      <Route path="/console/bots/:id/qa" component={QaPage} />
      <Route path="/console/bots/:id/insights" component={InsightsPage} />
      <Route path="/console/bots/:id/logs" component={LogsPage} />
      <Route path="/console/team" component={TeamPage} />
      <Route path="/console/settings" component={SettingsPage} />
      <Route path="/console/audit" component={AuditPage} />
      <Route path="/console/usage" component={UsagePage} />
      <Route path="/console/account" component={AccountPage} />
      <Route default component={NotFoundPage} />
    </Router>
  );
}
