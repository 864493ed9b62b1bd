import type { Bot } from '@parley/client';
import { useLocation } from 'preact-iso';
import { useConsole } from '../context.js';
import { ConfirmDelete } from './confirm-delete.js';

/** Deletes a bot after a second, explicit confirmation naming it. */
export function DeleteBot({ bot }: { bot: Bot }) {
  const { client } = useConsole();
  const { route } = useLocation();
  return (
    <div class="card stack danger-zone">
      <h2>Delete</h2>
      <ConfirmDelete
        askLabel="Delete bot"
        confirmLabel="Yes, delete this bot"
        question={
          <>
            Delete <strong>{bot.name}</strong> with its knowledge, files, conversations and keys? This cannot
            be undone.
          </>
        }
        remove={() => client.deleteBot({ id: bot.id })}
        onDeleted={() => route('/console/bots')}
      />
    </div>
  );
}
