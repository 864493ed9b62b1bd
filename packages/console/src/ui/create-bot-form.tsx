import { useConsole } from '../context.js';
import { t } from '../i18n.js';
import { CreateByName } from './create-by-name.js';

/** Creates a bot in the chosen workspace from its name, then opens it. */
export function CreateBotForm({ onCreated }: { onCreated(): void }) {
  const { client } = useConsole();
  return (
    <CreateByName
      id="new-bot-name"
      label={t('bots.name')}
      hint={t('bots.nameHint')}
      submitLabel={t('bots.create')}
      create={async (name) => {
        const { bot } = await client.createBot({ name });
        return {
          words: t('bots.createdWords', { name: bot.name }),
          open: `/console/bots/${encodeURIComponent(bot.id)}`,
        };
      }}
      onCreated={onCreated}
    />
  );
}
