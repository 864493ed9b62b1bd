import type { Bot } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { useLoad, useOwnMember } from '../../hooks.js';
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
        <h2>Search playground</h2>
        <p class="muted">
          See what a question finds in this bot's documents, and the reply the bot would give to it in a
          conversation. Nothing is stored.
        </p>
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
            <h2 id="playground-results-title">Passages found</h2>
            <Notice error={results.error} />
            {results.loading ? <p role="status">Searching…</p> : null}
            {results.data ? (
              <SearchResults botId={bot.id} query={search.query} passages={results.data.passages} />
            ) : null}
          </section>
          <section class="card stack" aria-labelledby="playground-reply-title" aria-busy={reply.fetching}>
            <h2 id="playground-reply-title">The bot's reply</h2>
            <p class="hint">
              What the bot would answer in a conversation: it searches all its knowledge bases, whatever the
              filter above.
            </p>
            <Notice error={reply.error} />
            {reply.loading ? <p role="status">Asking the bot…</p> : null}
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
        <p class="empty">
          Type a question above and press Search: the passages found and the bot's reply show here.
        </p>
      )}
    </div>
  );
}
