import type { UpdateBotInput } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useAction } from '../hooks.js';

/**
 * Saves a change of a bot (the Admin API's updateBot): its pending state, its failure in words, and `notice`,
 * the words said once it is saved. `save` answers whether it was.
 */
export function useBotUpdate(botId: string, onSaved: () => void) {
  const { client } = useConsole();
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  async function save(changes: Omit<UpdateBotInput, 'id'>, words: string): Promise<boolean> {
    setNotice(undefined);
    const answer = await run(() => client.updateBot({ id: botId, ...changes }));
    if (!answer) return false;
    onSaved();
    setNotice(words);
    return true;
  }
  return { pending, error, notice, save };
}
