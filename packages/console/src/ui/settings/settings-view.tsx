import type { Workspace } from '@parley/client';

/** The workspace's settings as text, for roles that may not change them. */
export function SettingsView({ workspace }: { workspace: Workspace }) {
  const rows: Array<[string, string]> = [
    ['Workspace name', workspace.name],
    ['About', workspace.about],
    ['Contact email', workspace.contactEmail],
    ['Website', workspace.website],
  ];
  return (
    <div class="card stack">
      <dl class="settings-view">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value || <span class="muted">Not set</span>}</dd>
          </div>
        ))}
      </dl>
      <p class="hint">Only owners and administrators change the workspace's settings.</p>
    </div>
  );
}
