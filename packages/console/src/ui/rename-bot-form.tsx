import type { Bot } from '@parley/client';
import { useForm } from '../form.js';
import { useBotUpdate } from './bot-update.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

/** Renames a bot. */
export function RenameBotForm({ bot, onSaved }: { bot: Bot; onSaved(): void }) {
  const { pending, error, notice, save } = useBotUpdate(bot.id, onSaved);
  const form = useForm({ name: bot.name }, ({ name }) => save({ name: name.trim() }, 'Name saved.'));
  const name = form.field('name');

  return (
    <form class="card stack" onSubmit={form.submit}>
      <h2>Name</h2>
      <Field id="bot-name" label="Bot name" required maxLength={200} {...name} />
      <div class="actions">
        <button
          type="submit"
          class="primary"
          disabled={pending || name.value.trim() === '' || name.value.trim() === bot.name}
        >
          Save
        </button>
      </div>
      <Notice error={error} done={notice} />
    </form>
  );
}
