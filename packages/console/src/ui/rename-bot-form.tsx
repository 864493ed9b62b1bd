import type { Bot } from '@parley/client';
import { useForm } from '../form.js';
import { t } from '../i18n.js';
import { useBotUpdate } from './bot-update.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

/** Renames a bot. */
export function RenameBotForm({ bot, onSaved }: { bot: Bot; onSaved(): void }) {
  const { pending, error, notice, save } = useBotUpdate(bot.id, onSaved);
  const form = useForm({ name: bot.name }, ({ name }) =>
    save({ name: name.trim() }, t('overview.nameSaved')),
  );
  const name = form.field('name');

  return (
    <form class="card stack" onSubmit={form.submit}>
      <h2>{t('overview.nameTitle')}</h2>
      <Field id="bot-name" label={t('bots.name')} required maxLength={200} {...name} />
      <div class="actions">
        <button
          type="submit"
          class="primary"
          disabled={pending || name.value.trim() === '' || name.value.trim() === bot.name}
        >
          {t('action.save')}
        </button>
      </div>
      <Notice error={error} done={notice} />
    </form>
  );
}
