import type { Bot } from '@parley/client';
import { useLocation } from 'preact-iso';
import { useConsole } from '../context.js';
import { t } from '../i18n.js';
import { ConfirmDelete } from './confirm-delete.js';

/** Deletes a bot after a second, explicit confirmation naming it. */
export function DeleteBot({ bot }: { bot: Bot }) {
  const { client } = useConsole();
  const { route } = useLocation();
  return (
    <div class="card stack danger-zone">
      <h2>{t('overview.deleteTitle')}</h2>
      <ConfirmDelete
        askLabel={t('overview.delete')}
        confirmLabel={t('overview.deleteConfirm')}
        question={
          <>
            {t('overview.deleteAsk')}
            <strong>{bot.name}</strong>
            {t('overview.deleteWhy')}
          </>
        }
        remove={() => client.deleteBot({ id: bot.id })}
        onDeleted={() => route('/console/bots')}
      />
    </div>
  );
}
