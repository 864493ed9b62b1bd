import { useConsole } from '../../context.js';
import { useLoad, useOwnMember } from '../../hooks.js';
import { t } from '../../i18n.js';
import { mayEditWorkspace } from '../../roles.js';
import { Notice } from '../notice.js';
import { WorkspaceFrame } from '../workspace-frame.js';
import { SettingsForm } from './settings-form.js';
import { SettingsView } from './settings-view.js';

/**
 * `/console/settings`: the chosen workspace's settings (name, about, contact e-mail, website). Owners and
 * administrators edit and save them; other roles read them.
 */
export function SettingsPage() {
  const { client, workspace } = useConsole();
  const me = useOwnMember();
  const settings = useLoad(['workspace', workspace?.id], () =>
    workspace ? client.getWorkspace({ id: workspace.id }) : Promise.resolve(null),
  );
  const loaded = settings.data;
  return (
    <WorkspaceFrame title={t('settings.title')}>
      <Notice error={settings.error ?? me.error} />
      {!loaded || !me.data ? (
        settings.loading || me.loading ? (
          <p role="status">{t('settings.loading')}</p>
        ) : null
      ) : mayEditWorkspace(me.data.role) ? (
        <SettingsForm key={loaded.id} workspace={loaded} onSaved={settings.reload} />
      ) : (
        <SettingsView workspace={loaded} />
      )}
    </WorkspaceFrame>
  );
}
