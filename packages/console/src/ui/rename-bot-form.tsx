import type { Bot } from '@parley/client';
import { t } from '../i18n.js';
import { useBotUpdate } from './bot-update.js';
import { NameCard } from './name-form.js';

/** Renames a bot. */
export function RenameBotForm({ bot, onSaved }: { bot: Bot; onSaved(): void }) {
  const { pending, error, notice, save } = useBotUpdate(bot.id, onSaved);
  return (
    <NameCard
      title={t('overview.nameTitle')}
      field={{ id: 'bot-name', label: t('bots.name') }}
      saved={bot.name}
      submitLabel={t('action.save')}
      state={{ pending, error, notice }}
      onSave={(name) => save({ name }, t('overview.nameSaved'))}
    />
  );
}
