import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useForm } from '../form.js';
import { useAction } from '../hooks.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

/** Creates a bot in the chosen workspace from its name. */
export function CreateBotForm({ onCreated }: { onCreated(): void }) {
  const { client } = useConsole();
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const form = useForm({ name: '' }, async ({ name }) => {
    setNotice(undefined);
    const answer = await run(() => client.createBot({ name: name.trim() }));
    if (!answer) return;
    form.reset({ name: '' });
    onCreated();
    setNotice(`Bot "${answer.bot.name}" created.`);
  });
  const name = form.field('name');

  return (
    <form class="card inline-form" onSubmit={form.submit}>
      <Field
        id="new-bot-name"
        label="Bot name"
        required
        maxLength={200}
        value={name.value}
        onValue={name.onValue}
        hint="The name your team sees; the webchat can show another one."
      />
      <button type="submit" class="primary" disabled={pending || name.value.trim() === ''}>
        Create bot
      </button>
      <Notice error={error} done={notice} />
    </form>
  );
}
