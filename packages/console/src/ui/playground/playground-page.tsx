import type { Bot } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { useLoad, useOwnMember } from '../../hooks.js';
import { t } from '../../i18n.js';
import { rememberPlaygroundTried } from '../../remembered.js';
import { mayWriteQa } from '../../roles.js';
import { BotFrame } from '../bot-frame.js';
import { Notice } from '../notice.js';
import { answerThisHref } from '../qa/fields.js';
import { BotReply } from './bot-reply.js';
import { SearchResults } from './results.js';
import { type PlaygroundSearch, SearchForm } from './search-form.js';

/** Passages a playground search asks for. */
const RESULT_LIMIT = 10;

/** Search playground: search the bot's files as the Files API does, and see the reply the bot would give. */
export function PlaygroundPage() {
  return <BotFrame>{(bot) => <Playground bot={bot} />}</BotFrame>;
}

function Playground({ bot }: { bot: Bot }) {
  const { client, workspace } = useConsole();
  const me = useOwnMember();
  const [search, setSearch] = useState<PlaygroundSearch | undefined>(undefined);
  const knowledgeBases = useLoad(['knowledge-bases', workspace?.id, bot.id, 'playground'], () =>
    client.list.knowledgeBases({}, { botId: bot.id }).collect(),
  );
  const results = useLoad(
    ['playground-search', workspace?.id, bot.id, search],
    () =>
      client.searchFiles(
        {
          query: search?.query ?? '',
          mode: search?.mode ?? 'hybrid',
          limit: RESULT_LIMIT,
          ...(search?.knowledgeBaseId ? { knowledgeBaseIds: [search.knowledgeBaseId] } : {}),
        },
        { botId: bot.id },
      ),
    { enabled: search !== undefined },
  );
  const reply = useLoad(
    ['answer-preview', workspace?.id, bot.id, search?.query],
    () => client.previewBotAnswer({ id: bot.id, question: search?.query ?? '' }),
    { enabled: search !== undefined },
  );

  return (
    <div class="stack">
      <div class="stack">
        <h2>{t('playground.title')}</h2>
        <p class="muted">{t('playground.lead')}</p>
      </div>
      <Notice error={knowledgeBases.error} />
      <SearchForm
        knowledgeBases={knowledgeBases.data ?? []}
        busy={results.fetching || reply.fetching}
        onSearch={(asked) => {
          rememberPlaygroundTried(bot.id);
          setSearch(asked);
        }}
      />
      {search ? (
        <div class="columns playground-columns">
          <section class="card stack" aria-labelledby="playground-results-title" aria-busy={results.fetching}>
            <h2 id="playground-results-title">{t('playground.passages')}</h2>
            <Notice error={results.error} />
            {results.loading ? <p role="status">{t('playground.searching')}</p> : null}
            {results.data ? (
              <SearchResults botId={bot.id} query={search.query} passages={results.data.passages} />
            ) : null}
          </section>
          <section class="card stack" aria-labelledby="playground-reply-title" aria-busy={reply.fetching}>
            <h2 id="playground-reply-title">{t('playground.reply')}</h2>
            <p class="hint">{t('playground.replyHint')}</p>
            <Notice error={reply.error} />
            {reply.loading ? <p role="status">{t('playground.asking')}</p> : null}
            {reply.data ? (
              <BotReply
                botId={bot.id}
                preview={reply.data}
                answerHref={mayWriteQa(me.data?.role) ? answerThisHref(bot.id, [search.query]) : undefined}
              />
            ) : null}
          </section>
        </div>
      ) : (
        <p class="empty">{t('playground.empty')}</p>
      )}
    </div>
  );
}
