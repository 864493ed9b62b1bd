import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useFormAction } from '../hooks.js';
import { Field } from './field.js';
import { Notice } from './notice.js';

/** Creates a bot in the chosen workspace from its name. */
export function CreateBotForm({ onCreated }: { onCreated(): void }) {
  const { client } = useConsole();
  const [name, setName] = useState('');
  const { pending, error, notice, submit } = useFormAction(
    () => client.createBot({ name: name.trim() }),
    (answer) => {
      setName('');
      onCreated();
      return `Bot "${answer.bot.name}" created.`;
    },
  );

  return (
    <form class="card inline-form" onSubmit={submit}>
      <Field
        id="new-bot-name"
        label="Bot name"
        required
        maxLength={200}
        value={name}
        onValue={setName}
        hint="The name your team sees; the webchat can show another one."
      />
      <button type="submit" class="primary" disabled={pending || name.trim() === ''}>
        Create bot
      </button>
      <Notice error={error} done={notice} />
    </form>
  );
}
