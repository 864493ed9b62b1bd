import { useConsole } from '../context.js';
import { formatDateTime } from '../format.js';
import { useOwnMember } from '../hooks.js';
import { t } from '../i18n.js';
import { mayDeleteBot, mayEditBots, mayManageBotKeys } from '../roles.js';
import { AccessTokens } from './access-tokens.js';
import { BotFrame, useRouteBot } from './bot-frame.js';
import { BotStatus } from './bot-status.js';
import { DeleteBot } from './delete-bot.js';
import { RenameBotForm } from './rename-bot-form.js';
import { RepliesForm } from './replies-form.js';
import { SOURCE_LINKS_WORDS, SourceLinksForm } from './source-links-form.js';

/** One bot's overview: its facts, rename, enable or disable, source links, access keys, delete. */
export function BotPage() {
  const { id, bot } = useRouteBot();
  const { client, workspace } = useConsole();
  const me = useOwnMember();
  return (
    <BotFrame>
      {(found) => (
        <>
          <p class="muted">
            <span class={`badge badge-${found.status}`}>
              {found.status === 'active' ? t('overview.enabled') : t('overview.disabled')}
            </span>{' '}
            {t('bots.created', { date: formatDateTime(found.createdAt) })}
          </p>
          <dl class="facts card">
            <dt>{t('overview.botId')}</dt>
            <dd>
              <code>{found.id}</code>
            </dd>
            <dt>{t('overview.workspace')}</dt>
            <dd>{workspace?.name}</dd>
            <dt>{t('overview.lastChanged')}</dt>
            <dd>{formatDateTime(found.updatedAt)}</dd>
            <dt>{t('overview.sourceLinks')}</dt>
            <dd>{t(SOURCE_LINKS_WORDS[found.sourceLinks].name)}</dd>
          </dl>
          {mayEditBots(me.data?.role) ? (
            <>
              <RenameBotForm key={found.id} bot={found} onSaved={bot.reload} />
              <BotStatus bot={found} onChanged={bot.reload} />
              <SourceLinksForm key={found.id} bot={found} onSaved={bot.reload} />
              <RepliesForm key={`${found.id}-replies`} bot={found} onSaved={bot.reload} />
            </>
          ) : null}
          <AccessTokens
            key={found.id}
            id="bot-key"
            noun="key"
            list={() => client.listBotAccessKeys({ id }).then((r) => r.keys)}
            create={(input) => client.createBotAccessKey({ id, ...input }).then((r) => r.key)}
            revoke={(token) => client.revokeBotAccessKey({ id, keyId: token.id })}
            mayChange={mayManageBotKeys(me.data?.role)}
            queryKey={['bot', workspace?.id, id, 'keys']}
          />
          {mayDeleteBot(me.data ?? undefined, found) ? <DeleteBot bot={found} /> : null}
        </>
      )}
    </BotFrame>
  );
}
