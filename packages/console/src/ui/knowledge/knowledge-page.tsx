import type { Bot, KnowledgeBase } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { useForm } from '../../form.js';
import { useAction, useLoad, useOwnMember } from '../../hooks.js';
import { mayChangeFiles } from '../../roles.js';
import { BotFrame } from '../bot-frame.js';
import { Field } from '../field.js';
import { Notice } from '../notice.js';
import { useBotClient } from './file-status.js';
import { KnowledgeBaseRow } from './knowledge-base-row.js';

/** A bot's knowledge bases: the named groups of files its answers come from. */
export function KnowledgePage() {
  return <BotFrame>{(bot) => <KnowledgeBases bot={bot} />}</BotFrame>;
}

function KnowledgeBases({ bot }: { bot: Bot }) {
  const { workspace } = useConsole();
  const files = useBotClient(bot.id);
  const me = useOwnMember();
  const mayChange = mayChangeFiles(me.data?.role);
  const kbs = useLoad(['knowledge-bases', workspace?.id, bot.id], () =>
    files.list.knowledgeBases({ pageSize: 100 }).collect(),
  );
  return (
    <div class="stack">
      <h2>Knowledge bases</h2>
      <p class="muted">
        A knowledge base groups the documents the bot answers from. Open one to drop files into it.
      </p>
      {mayChange ? <CreateKnowledgeBase botId={bot.id} onCreated={kbs.reload} /> : null}
      <Notice error={kbs.error} />
      {kbs.data === undefined ? (
        kbs.loading ? (
          <p role="status">Loading knowledge bases…</p>
        ) : null
      ) : kbs.data.length === 0 ? (
        <p class="empty">
          {mayChange
            ? 'No knowledge base yet. Name one above and press "Create knowledge base", then drop your documents into it.'
            : 'No knowledge base yet. Someone with the developer role or above can create one.'}
        </p>
      ) : (
        <ul class="list" aria-label="Knowledge bases">
          {kbs.data.map((kb: KnowledgeBase) => (
            <KnowledgeBaseRow
              key={kb.id}
              botId={bot.id}
              kb={kb}
              mayChange={mayChange}
              onChanged={kbs.reload}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

/** Creates a knowledge base from its name. */
function CreateKnowledgeBase({ botId, onCreated }: { botId: string; onCreated(): void }) {
  const files = useBotClient(botId);
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const form = useForm({ name: '' }, async ({ name }) => {
    setNotice(undefined);
    const answer = await run(() => files.createKnowledgeBase({ name: name.trim() }));
    if (!answer) return;
    form.reset({ name: '' });
    onCreated();
    setNotice(`Knowledge base "${answer.knowledgeBase.name}" created.`);
  });
  const name = form.field('name');
  return (
    <form class="card inline-form" onSubmit={form.submit}>
      <Field
        id="new-kb-name"
        label="Knowledge base name"
        required
        maxLength={200}
        value={name.value}
        onValue={name.onValue}
        hint='For example "Product manuals" or "HR policies".'
      />
      <button type="submit" class="primary" disabled={pending || name.value.trim() === ''}>
        Create knowledge base
      </button>
      <Notice error={error} done={notice} />
    </form>
  );
}
