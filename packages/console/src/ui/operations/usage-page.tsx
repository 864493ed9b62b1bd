import type { BotSummary } from '@parley/client';
import { useConsole } from '../../context.js';
import { useLoad } from '../../hooks.js';
import { t } from '../../i18n.js';
import { ListState } from '../list-state.js';
import { Notice } from '../notice.js';
import { Pager, usePager } from './pager.js';
import { UsageBar } from './usage-bar.js';

/** Bots per page of the per-bot list (each asks for its own usage). */
const BOTS_PER_PAGE = 20;

/** The quota figures first (file storage, vector storage, bots), this month's chat, then the other counts. */
const ORDER = [
  'storage_count',
  'knowledgebase_vector_storage',
  'bot_count',
  'conversation_count',
  'message_count',
];
const rank = (type: string) => (ORDER.includes(type) ? ORDER.indexOf(type) : ORDER.length);

/** One bot's file storage against the per-bot quota. */
function BotUsage({ bot }: { bot: BotSummary }) {
  const { client, workspace } = useConsole();
  const usage = useLoad(['bot-usage', workspace?.id, bot.id], () =>
    client.listBotUsages({ id: bot.id }).then((r) => r.usages),
  );
  const storage = usage.data?.find((u) => u.type === 'storage_count');
  const name = bot.name || t('bots.unnamed');
  return (
    <li class="list-row usage-row">
      <a href={`/console/bots/${encodeURIComponent(bot.id)}`} class="list-title">
        {name}
      </a>
      {storage ? (
        <UsageBar usage={storage} name={t('usage.storageOf', { name })} />
      ) : usage.error ? (
        <Notice error={usage.error} />
      ) : (
        <span class="muted">{t('app.loading')}</span>
      )}
    </li>
  );
}

/** The workspace's usage against its quotas, and each bot's file storage against the per-bot quota. */
export function UsagePage() {
  const { client, workspace } = useConsole();
  const usages = useLoad(['usage', workspace?.id], () =>
    workspace ? client.listWorkspaceUsages({ id: workspace.id }).then((r) => r.usages) : Promise.resolve([]),
  );
  const pager = usePager();
  const bots = useLoad(['bots', workspace?.id, 'usage-page', pager.token], () =>
    client.listBots({
      sortField: 'name',
      sortDirection: 'asc',
      pageSize: BOTS_PER_PAGE,
      ...(pager.token ? { nextToken: pager.token } : {}),
    }),
  );
  if (!workspace) return <p>{t('workspace.none')}</p>;
  const figures = [...(usages.data ?? [])].sort((a, b) => rank(a.type) - rank(b.type));
  return (
    <section class="stack">
      <div class="page-head">
        <h1>{t('nav.usage')}</h1>
        <p class="muted">
          {t('usage.ofWorkspace', { name: workspace.name })}
          {figures[0] ? ` (${figures[0].period})` : ''}
        </p>
      </div>
      <ListState
        of={{
          error: usages.error,
          loading: usages.fetching,
          data: usages.data === undefined ? undefined : figures,
        }}
        loadingWords={t('usage.loading')}
      >
        {(list) => (
          <section class="card stack" aria-labelledby="usage-workspace">
            <h2 id="usage-workspace">{t('workspace.label')}</h2>
            {list.map((usage) => (
              <UsageBar key={usage.type} usage={usage} />
            ))}
          </section>
        )}
      </ListState>
      <section class="stack" aria-labelledby="usage-bots">
        <h2 id="usage-bots">{t('nav.bots')}</h2>
        <ListState
          of={{ error: bots.error, loading: bots.loading, data: bots.data?.bots }}
          loadingWords={t('bots.loading')}
          empty={t('usage.noBots')}
          label={t('usage.byBot')}
          row={(bot) => <BotUsage key={bot.id} bot={bot} />}
        />
        <Pager label={t('usage.botPages')} pager={pager} nextToken={bots.data?.meta.nextToken} />
      </section>
    </section>
  );
}
