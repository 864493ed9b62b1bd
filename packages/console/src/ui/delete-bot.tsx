import type { Bot } from '@parley/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useConsole } from '../context.js';
import { useAction } from '../hooks.js';
import { Notice } from './notice.js';

/** Deletes a bot after a second, explicit confirmation naming it. */
export function DeleteBot({ bot }: { bot: Bot }) {
  const { client } = useConsole();
  const { route } = useLocation();
  const [confirming, setConfirming] = useState(false);
  const { pending, error, run } = useAction();
  const cancel = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) cancel.current?.focus();
  }, [confirming]);

  async function remove() {
    const answer = await run(() => client.deleteBot({ id: bot.id }));
    if (answer) route('/console/bots');
  }

  return (
    <div class="card stack danger-zone">
      <h2>Delete</h2>
      {confirming ? (
        <div class="stack">
          <p id="delete-question">
            Delete <strong>{bot.name}</strong> with its knowledge, files, conversations and keys? This cannot
            be undone.
          </p>
          <div class="actions">
            <button type="button" class="danger" onClick={remove} disabled={pending}>
              Yes, delete this bot
            </button>
            <button type="button" ref={cancel} onClick={() => setConfirming(false)} disabled={pending}>
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <div class="actions">
          <button type="button" class="danger" onClick={() => setConfirming(true)}>
            Delete bot
          </button>
        </div>
      )}
      <Notice error={error} />
    </div>
  );
}
