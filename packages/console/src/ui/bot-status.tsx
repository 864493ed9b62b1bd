import type { Bot } from '@parley/client';
import { useConsole } from '../context.js';
import { useAction } from '../hooks.js';
import { t } from '../i18n.js';
import { Notice } from './notice.js';

/** Enables or disables a bot: a disabled bot answers no chat and no webchat. */
export function BotStatus({ bot, onChanged }: { bot: Bot; onChanged(): void }) {
  const { client } = useConsole();
  const { pending, error, run } = useAction();
  const active = bot.status === 'active';

  async function toggle() {
    const answer = await run(() => client.updateBot({ id: bot.id, status: active ? 'disabled' : 'active' }));
    if (answer) onChanged();
  }

  return (
    <div class="card stack">
      <h2>{t('overview.status')}</h2>
      <p>{active ? t('overview.isEnabled') : t('overview.isDisabled')}</p>
      <div class="actions">
        <button type="button" onClick={toggle} disabled={pending}>
          {active ? t('overview.disable') : t('overview.enable')}
        </button>
      </div>
      <Notice error={error} />
    </div>
  );
}
