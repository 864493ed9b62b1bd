import type { Bot } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useFormAction } from '../hooks.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

/** Renames a bot. */
export function RenameBotForm({ bot, onSaved }: { bot: Bot; onSaved(): void }) {
  const { client } = useConsole();
  const [name, setName] = useState(bot.name);
  const { pending, error, notice, submit } = useFormAction(
    () => client.updateBot({ id: bot.id, name: name.trim() }),
    () => {
      onSaved();
      return 'Name saved.';
    },
  );

  return (
    <form class="card stack" onSubmit={submit}>
      <h2>Name</h2>
      <Field id="bot-name" label="Bot name" required maxLength={200} value={name} onValue={setName} />
      <div class="actions">
        <button
          type="submit"
          class="primary"
          disabled={pending || name.trim() === '' || name.trim() === bot.name}
        >
          Save
        </button>
      </div>
      <Notice error={error} done={notice} />
    </form>
  );
}
