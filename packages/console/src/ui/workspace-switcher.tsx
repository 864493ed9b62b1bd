import { useLocation } from 'preact-iso';
import { useConsole } from '../context.js';

/** The account's workspaces; the choice is remembered by this browser and the pages follow it. */
export function WorkspaceSwitcher() {
  const { workspace, workspaces, chooseWorkspace } = useConsole();
  const { route, path } = useLocation();
  if (workspaces.length === 0) return null;
  return (
    <div class="switcher">
      <label for="workspace-switcher">Workspace</label>
      <select
        id="workspace-switcher"
        value={workspace?.id}
        onChange={(event) => {
          chooseWorkspace(event.currentTarget.value);
          // A bot belongs to one workspace: from a bot's page, go to the new workspace's list.
          if (path.startsWith('/console/bots/')) route('/console/bots');
        }}
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
    </div>
  );
}
