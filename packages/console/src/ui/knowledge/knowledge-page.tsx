import type { Bot, KnowledgeBase } from '@parley/client';
import { useConsole } from '../../context.js';
import { useLoad, useOwnMember } from '../../hooks.js';
import { t } from '../../i18n.js';
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
  // Fresh each time the page opens: its files' counts change on a knowledge base's page meanwhile.
  const kbs = useLoad(
    ['knowledge-bases', workspace?.id, bot.id],
    () => files.list.knowledgeBases({ pageSize: 100 }).collect(),
    { fresh: true },
  );
  return (
    <div class="stack">
      <div class="page-head">
        <h2>{t('kb.title')}</h2>
        {kbs.data && kbs.data.length > 0 ? <span class="muted">{describeKnowledge(kbs.data)}</span> : null}
      </div>
      <p class="muted">{t('kb.lead')}</p>
      {mayChange ? <CreateKnowledgeBase botId={bot.id} onCreated={kbs.reload} /> : null}
      <ListState
        of={kbs}
        loadingWords={t('kb.loading')}
        empty={mayChange ? t('kb.emptyMayCreate') : t('kb.empty')}
        label={t('kb.title')}
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
      label={t('kb.name')}
      hint={t('kb.nameHint')}
      submitLabel={t('kb.create')}
      create={async (name) => {
        const { knowledgeBase } = await files.createKnowledgeBase({ name });
        return {
          words: t('kb.created', { name: knowledgeBase.name }),
          open: `/console/bots/${encodeURIComponent(botId)}/knowledge/${encodeURIComponent(knowledgeBase.id)}`,
        };
      }}
      onCreated={onCreated}
    />
  );
}
