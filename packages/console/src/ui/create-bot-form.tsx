import { useConsole } from '../context.js';
import { CreateByName } from './create-by-name.js';

/** Creates a bot in the chosen workspace from its name, then opens it. */
export function CreateBotForm({ onCreated }: { onCreated(): void }) {
  const { client } = useConsole();
  return (
    <CreateByName
      id="new-bot-name"
      label="Bot name"
      hint="The name your team sees; the webchat can show another one."
      submitLabel="Create bot"
      create={async (name) => {
        const { bot } = await client.createBot({ name });
        return {
          words: `Bot "${bot.name}" created. This is its overview: add knowledge next.`,
          open: `/console/bots/${encodeURIComponent(bot.id)}`,
        };
      }}
      onCreated={onCreated}
    />
  );
}
