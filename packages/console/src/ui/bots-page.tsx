import { useConsole } from '../context.js';
import { formatDateTime } from '../format.js';
import { useLoad, useOwnMember } from '../hooks.js';
import { t } from '../i18n.js';
import { mayEditBots } from '../roles.js';
import { CreateBotForm } from './create-bot-form.js';
import { FirstRunSlot } from './first-run-slot.js';
import { ListState } from './list-state.js';
import { WorkspaceFrame } from './workspace-frame.js';

/** The bots of the chosen workspace, by name, and the form that creates one. */
export function BotsPage() {
  const { client, workspace } = useConsole();
  const me = useOwnMember();
  const mayCreate = mayEditBots(me.data?.role);
  const bots = useLoad(['bots', workspace?.id], () =>
    workspace ? client.list.bots({ sortField: 'name', sortDirection: 'asc' }).collect() : Promise.resolve([]),
  );

  return (
    <WorkspaceFrame title={t('nav.bots')} about={(w) => t('bots.in', { name: w.name })}>
      {mayCreate ? <CreateBotForm onCreated={bots.reload} /> : null}
      {mayCreate && me.data && bots.data ? <FirstRunSlot bots={bots.data} me={me.data} /> : null}
      <ListState
        of={bots}
        loadingWords={t('bots.loading')}
        empty={mayCreate ? t('bots.emptyMayCreate') : t('bots.empty')}
        label={t('nav.bots')}
        row={(bot) => (
          <li key={bot.id} class="list-row">
            <a href={`/console/bots/${encodeURIComponent(bot.id)}`} class="list-title">
              {bot.name || t('bots.unnamed')}
            </a>
            <span class="muted">{t('bots.created', { date: formatDateTime(bot.createdAt) })}</span>
          </li>
        )}
      />
    </WorkspaceFrame>
  );
}
