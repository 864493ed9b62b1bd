import { useRoute } from 'preact-iso';
import { useConsole } from '../context.js';
import { formatDateTime } from '../format.js';
import { useLoad, useOwnMember } from '../hooks.js';
import { mayDeleteBot, mayEditBots } from '../roles.js';
import { BotStatus } from './bot-status.js';
import { DeleteBot } from './delete-bot.js';
import { Notice } from './notice.js';
import { RenameBotForm } from './rename-bot-form.js';

/** One bot: its facts, rename, enable or disable, delete. */
export function BotPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const { client, workspace } = useConsole();
  const bot = useLoad(() => client.getBot({ id }).then((r) => r.bot), [client, id]);
  const me = useOwnMember();

  return (
    <section class="stack">
      <p>
        <a href="/console/bots">← All bots</a>
      </p>
      {bot.data ? (
        <>
          <div class="page-head">
            <h1>{bot.data.name || 'Unnamed bot'}</h1>
            <p class="muted">
              <span class={`badge badge-${bot.data.status}`}>
                {bot.data.status === 'active' ? 'Enabled' : 'Disabled'}
              </span>{' '}
              Created {formatDateTime(bot.data.createdAt)}
            </p>
          </div>
          <dl class="facts card">
            <dt>Bot id</dt>
            <dd>
              <code>{bot.data.id}</code>
            </dd>
            <dt>Workspace</dt>
            <dd>{workspace?.name}</dd>
            <dt>Last changed</dt>
            <dd>{formatDateTime(bot.data.updatedAt)}</dd>
          </dl>
          {mayEditBots(me.data?.role) ? (
            <>
              <RenameBotForm key={bot.data.id} bot={bot.data} onSaved={bot.reload} />
              <BotStatus bot={bot.data} onChanged={bot.reload} />
            </>
          ) : null}
          {mayDeleteBot(me.data, bot.data) ? <DeleteBot bot={bot.data} /> : null}
        </>
      ) : bot.loading ? (
        <p role="status">Loading the bot…</p>
      ) : (
        <>
          <h1>Bot not found</h1>
          <Notice error={bot.error} />
          <p>It may have been deleted, or it belongs to another workspace than {workspace?.name}.</p>
        </>
      )}
    </section>
  );
}
