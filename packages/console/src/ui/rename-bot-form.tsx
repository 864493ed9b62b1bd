import type { Bot } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useForm } from '../form.js';
import { useAction } from '../hooks.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

/** Renames a bot. */
export function RenameBotForm({ bot, onSaved }: { bot: Bot; onSaved(): void }) {
  const { client } = useConsole();
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const form = useForm({ name: bot.name }, async ({ name }) => {
    setNotice(undefined);
    const answer = await run(() => client.updateBot({ id: bot.id, name: name.trim() }));
    if (!answer) return;
    onSaved();
    setNotice('Name saved.');
  });
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
