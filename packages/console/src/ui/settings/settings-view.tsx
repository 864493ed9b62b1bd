import type { Workspace } from '@parley/client';
import { t } from '../../i18n.js';

/** The workspace's settings as text, for roles that may not change them. */
export function SettingsView({ workspace }: { workspace: Workspace }) {
  const rows: Array<[string, string]> = [
    [t('settings.name'), workspace.name],
    [t('settings.about'), workspace.about],
    [t('settings.contact'), workspace.contactEmail],
    [t('settings.website'), workspace.website],
  ];
  return (
    <div class="card stack">
      <dl class="settings-view">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value || <span class="muted">{t('settings.notSet')}</span>}</dd>
          </div>
        ))}
      </dl>
      <p class="hint">{t('settings.onlyAdmins')}</p>
    </div>
  );
}
