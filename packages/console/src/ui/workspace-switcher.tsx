import { useLocation } from 'preact-iso';
import { useConsole } from '../context.js';
import { t } from '../i18n.js';
import { SelectField } from './select-field.js';

/** The account's workspaces; the choice is remembered by this browser and the pages follow it. */
export function WorkspaceSwitcher() {
  const { workspace, workspaces, chooseWorkspace } = useConsole();
  const { route, path } = useLocation();
  if (workspaces.length === 0) return null;
  return (
    <SelectField
      class="switcher"
      id="workspace-switcher"
      label={t('workspace.label')}
      value={workspace?.id ?? ''}
      choices={workspaces.map((w) => ({ value: w.id, label: w.name }))}
      onValue={(id) => {
        chooseWorkspace(id);
        // A bot belongs to one workspace: from a bot's page, go to the new workspace's list.
        if (path.startsWith('/console/bots/')) route('/console/bots');
      }}
    />
  );
}
