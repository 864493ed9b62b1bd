import type { Bot, BotSourceLinks } from '@parley/client';
import { useState } from 'preact/hooks';
import { type MessageKey, t } from '../i18n.js';
import { useBotUpdate } from './bot-update.js';
import { Notice } from './notice.js';

/** Each setting's name and what it means for the people who see the bot's answers. */
export const SOURCE_LINKS_WORDS: Record<BotSourceLinks, { name: MessageKey; means: MessageKey }> = {
  public: { name: 'overview.linksPublic', means: 'overview.linksPublicMeans' },
  all: { name: 'overview.linksAll', means: 'overview.linksAllMeans' },
  none: { name: 'overview.linksNone', means: 'overview.linksNoneMeans' },
};

const ORDER: readonly BotSourceLinks[] = ['public', 'all', 'none'];

/** Which sources of the bot's answers are linked for visitors: public only, every file, or none. */
export function SourceLinksForm({ bot, onSaved }: { bot: Bot; onSaved(): void }) {
  const { pending, error, notice, save: saveBot } = useBotUpdate(bot.id, onSaved);
  const [value, setValue] = useState<BotSourceLinks>(bot.sourceLinks);

  async function save(event: Event) {
    event.preventDefault();
    await saveBot({ sourceLinks: value }, t('overview.linksSaved'));
  }

  return (
    <form class="card stack" onSubmit={save}>
      <h2>{t('overview.sourceLinks')}</h2>
      <p>{t('overview.linksLead')}</p>
      <div class="field">
        <label for="bot-source-links">{t('overview.linksLabel')}</label>
        <select
          id="bot-source-links"
          value={value}
          aria-describedby="bot-source-links-means"
          onChange={(event) => setValue(event.currentTarget.value as BotSourceLinks)}
        >
          {ORDER.map((v) => (
            <option key={v} value={v}>
              {t(SOURCE_LINKS_WORDS[v].name)}
            </option>
          ))}
        </select>
        <p id="bot-source-links-means" class="hint">
          {t(SOURCE_LINKS_WORDS[value].means)}
        </p>
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={pending || value === bot.sourceLinks}>
          {t('overview.linksApply')}
        </button>
      </div>
      <Notice error={error} done={notice} />
    </form>
  );
}
