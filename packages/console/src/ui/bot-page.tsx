import { useRoute } from 'preact-iso';
import { useConsole } from '../context.js';
import { formatDateTime } from '../format.js';
import { useLoad, useOwnMember } from '../hooks.js';
import { mayDeleteBot, mayEditBots, mayManageBotKeys } from '../roles.js';
import { AccessTokens } from './access-tokens.js';
import { BotStatus } from './bot-status.js';
import { DeleteBot } from './delete-bot.js';
import { Notice } from './notice.js';
import { RenameBotForm } from './rename-bot-form.js';

const KEY_WORDS = {
  title: 'Access keys',
  intro:
    'A key lets your backend call the Chat API as this bot (sent as a bearer token); it has no Admin API rights.',
  noun: 'key',
} as const;

/** One bot: its facts, rename, enable or disable, access keys, delete. */
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
          <AccessTokens
            key={bot.data.id}
            id="bot-key"
            words={KEY_WORDS}
            list={() => client.listBotAccessKeys({ id }).then((r) => r.keys)}
            create={(input) => client.createBotAccessKey({ id, ...input }).then((r) => r.key)}
            revoke={(token) => client.revokeBotAccessKey({ id, keyId: token.id })}
            mayChange={mayManageBotKeys(me.data?.role)}
            deps={[client, id]}
          />
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
