import { lazy } from 'preact-iso';

// The pages past the first screen, each its own script chunk loaded when first opened (the Bots page and the
// frame load first; the charts library comes only with Insights). preact-iso's Router waits for them.

export const KnowledgePage = lazy(() => import('./knowledge/knowledge-page.js').then((m) => m.KnowledgePage));
export const KnowledgeBasePage = lazy(() =>
  import('./knowledge/knowledge-base-page.js').then((m) => m.KnowledgeBasePage),
);
export const FilesPage = lazy(() => import('./knowledge/files-page.js').then((m) => m.FilesPage));
export const FilePage = lazy(() => import('./knowledge/file-page.js').then((m) => m.FilePage));
export const PlaygroundPage = lazy(() =>
  import('./playground/playground-page.js').then((m) => m.PlaygroundPage),
);
export const DesignerPage = lazy(() => import('./designer/designer-page.js').then((m) => m.DesignerPage));
export const InboxPage = lazy(() => import('./inbox/inbox-page.js').then((m) => m.InboxPage));
export const ConversationPage = lazy(() =>
  import('./inbox/conversation-page.js').then((m) => m.ConversationPage),
);
export const QaPage = lazy(() => import('./qa/qa-page.js').then((m) => m.QaPage));
export const InsightsPage = lazy(() => import('./insights/insights-page.js').then((m) => m.InsightsPage));
export const LogsPage = lazy(() => import('./operations/logs-page.js').then((m) => m.LogsPage));
export const AuditPage = lazy(() => import('./operations/audit-page.js').then((m) => m.AuditPage));
export const UsagePage = lazy(() => import('./operations/usage-page.js').then((m) => m.UsagePage));
export const TeamPage = lazy(() => import('./team-page.js').then((m) => m.TeamPage));
export const AccountPage = lazy(() => import('./account-page.js').then((m) => m.AccountPage));
export const SettingsPage = lazy(() => import('./settings/settings-page.js').then((m) => m.SettingsPage));
