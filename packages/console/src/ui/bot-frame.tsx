import type { Bot } from '@parley/client';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { takeAnnouncement } from '../arrival.js';
import { useConsole } from '../context.js';
import { useLoad } from '../hooks.js';
import { t } from '../i18n.js';
import { Notice } from './notice.js';

/** The sections of a bot, in the order of its tab bar (`label`: the catalog key of its name). */
export const BOT_SECTIONS = [
  { path: '', label: 'section.overview' },
  { path: '/knowledge', label: 'section.knowledge' },
  { path: '/files', label: 'section.files' },
  { path: '/qa', label: 'section.qa' },
  { path: '/playground', label: 'section.playground' },
  { path: '/webchat', label: 'section.webchat' },
  { path: '/conversations', label: 'section.conversations' },
  { path: '/insights', label: 'section.insights' },
  { path: '/logs', label: 'section.logs' },
] as const;

/** The bot named by the route's `:id`, cached under `['bot', workspace, id]` (shared by every bot page). */
export function useRouteBot() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const { client, workspace } = useConsole();
  const bot = useLoad(['bot', workspace?.id, id], () => client.getBot({ id }).then((r) => r.bot));
  return { id, bot };
}

/**
 * Keeps the current tab of a tab strip in view: on a phone the strip scrolls sideways, and a tab past its edge
 * is brought to its middle (the strip alone scrolls, never the page).
 */
function useCurrentTabInView() {
  const strip = useRef<HTMLElement>(null);
  useEffect(() => {
    const nav = strip.current;
    const tab = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !tab || nav.scrollWidth <= nav.clientWidth) return;
    const left = tab.offsetLeft - nav.offsetLeft;
    if (left >= nav.scrollLeft && left + tab.offsetWidth <= nav.scrollLeft + nav.clientWidth) return;
    nav.scrollLeft = left - (nav.clientWidth - tab.offsetWidth) / 2;
  });
  return strip;
}

/**
 * The frame of every page of one bot: a link back to all bots, the bot's name, its sections as tabs, then
 * `children(bot)` once the bot is loaded (or why it is not).
 */
export function BotFrame({ children }: { children: (bot: Bot) => ComponentChildren }) {
  const { id, bot } = useRouteBot();
  const { path } = useLocation();
  const { workspace } = useConsole();
  // Opened right after it was made (CreateByName): say so here.
  const [arrival] = useState(() => takeAnnouncement(path));
  const strip = useCurrentTabInView();
  const base = `/console/bots/${encodeURIComponent(id)}`;
  const here = (section: string) =>
    section === '' ? path === base : path === base + section || path.startsWith(`${base + section}/`);
  return (
    <section class="stack">
      <p>
        <a href="/console/bots">{t('bot.allBots')}</a>
      </p>
      {bot.data ? (
        <>
          <div class="page-head">
            <h1>{bot.data.name || t('bots.unnamed')}</h1>
          </div>
          <nav class="tabs" aria-label={t('bot.sections')} ref={strip}>
            {BOT_SECTIONS.map((section) => (
              <a
                key={section.path}
                href={base + section.path}
                aria-current={here(section.path) ? 'page' : undefined}
              >
                {t(section.label)}
              </a>
            ))}
          </nav>
          <Notice done={arrival} />
          {children(bot.data)}
        </>
      ) : bot.loading ? (
        <p role="status">{t('bot.loading')}</p>
      ) : (
        <>
          <h1>{t('bot.notFound')}</h1>
          <Notice error={bot.error} />
          <p>{t('bot.notFoundWhy', { name: workspace?.name ?? '' })}</p>
        </>
      )}
    </section>
  );
}
