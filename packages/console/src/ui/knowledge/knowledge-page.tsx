import type { Bot, KnowledgeBase } from '@parley/client';
import { useConsole } from '../../context.js';
import { useLoad, useOwnMember } from '../../hooks.js';
import { mayChangeFiles } from '../../roles.js';
import { BotFrame } from '../bot-frame.js';
import { CreateByName } from '../create-by-name.js';
import { ListState } from '../list-state.js';
import { useBotClient } from './file-status.js';
import { describeKnowledge, KnowledgeBaseRow } from './knowledge-base-row.js';

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
      <div class="page-head">
        <h2>Knowledge bases</h2>
        {kbs.data && kbs.data.length > 0 ? <span class="muted">{describeKnowledge(kbs.data)}</span> : null}
      </div>
      <p class="muted">
        A knowledge base groups the documents the bot answers from. Open one to drop files into it.
      </p>
      {mayChange ? <CreateKnowledgeBase botId={bot.id} onCreated={kbs.reload} /> : null}
      <ListState
        of={kbs}
        loadingWords="Loading knowledge bases…"
        empty={
          mayChange
            ? 'No knowledge base yet. Name one above and press "Create knowledge base", then drop your documents into it.'
            : 'No knowledge base yet. Someone with the developer role or above can create one.'
        }
        label="Knowledge bases"
        row={(kb: KnowledgeBase) => (
          <KnowledgeBaseRow key={kb.id} botId={bot.id} kb={kb} mayChange={mayChange} onChanged={kbs.reload} />
        )}
      />
    </div>
  );
}

/** Creates a knowledge base from its name, then opens it. */
function CreateKnowledgeBase({ botId, onCreated }: { botId: string; onCreated(): void }) {
  const files = useBotClient(botId);
  return (
    <CreateByName
      id="new-kb-name"
      label="Knowledge base name"
      hint='For example "Product manuals" or "HR policies".'
      submitLabel="Create knowledge base"
      create={async (name) => {
        const { knowledgeBase } = await files.createKnowledgeBase({ name });
        return {
          words: `Knowledge base "${knowledgeBase.name}" created. Drop your documents into it below.`,
          open: `/console/bots/${encodeURIComponent(botId)}/knowledge/${encodeURIComponent(knowledgeBase.id)}`,
        };
      }}
      onCreated={onCreated}
    />
  );
}
