import type { Bot, BotSourceLinks } from '@parley/client';
import { useState } from 'preact/hooks';
import { useBotUpdate } from './bot-update.js';
import { Notice } from './notice.js';

/** Each setting's name and what it means for the people who see the bot's answers. */
export const SOURCE_LINKS_WORDS: Record<BotSourceLinks, { name: string; means: string }> = {
  public: {
    name: 'Public sources only (recommended)',
    means:
      'Links public files (readable without credentials) and, for a file read from a web page, that page (its sourceUrl). Other sources are named without a link.',
  },
  all: {
    name: 'Every source',
    means:
      'Anyone who sees an answer can download the whole file of each source, private files included, with everything the answer did not quote.',
  },
  none: {
    name: 'No links',
    means: 'Sources are named by their title, never linked.',
  },
};

const ORDER: readonly BotSourceLinks[] = ['public', 'all', 'none'];

/** Which sources of the bot's answers are linked for visitors: public only, every file, or none. */
export function SourceLinksForm({ bot, onSaved }: { bot: Bot; onSaved(): void }) {
  const { pending, error, notice, save: saveBot } = useBotUpdate(bot.id, onSaved);
  const [value, setValue] = useState<BotSourceLinks>(bot.sourceLinks);

  async function save(event: Event) {
    event.preventDefault();
    await saveBot(
      { sourceLinks: value },
      'Source links saved: links already in answers follow the new setting.',
    );
  }

  return (
    <form class="card stack" onSubmit={save}>
      <h2>Source links</h2>
      <p>
        The bot's answers name the files they quote. Choose which of them visitors can open; links in earlier
        answers follow this setting too.
      </p>
      <div class="field">
        <label for="bot-source-links">Link sources</label>
        <select
          id="bot-source-links"
          value={value}
          aria-describedby="bot-source-links-means"
          onChange={(event) => setValue(event.currentTarget.value as BotSourceLinks)}
        >
          {ORDER.map((v) => (
            <option key={v} value={v}>
              {SOURCE_LINKS_WORDS[v].name}
            </option>
          ))}
        </select>
        <p id="bot-source-links-means" class="hint">
          {SOURCE_LINKS_WORDS[value].means}
        </p>
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={pending || value === bot.sourceLinks}>
          Apply source links
        </button>
      </div>
      <Notice error={error} done={notice} />
    </form>
  );
}
