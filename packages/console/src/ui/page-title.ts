import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useConsole } from '../context.js';
import { useLoad } from '../hooks.js';
import { type MessageKey, t } from '../i18n.js';
import { BOT_SECTIONS } from './bot-frame.js';

/** The top sections of the Console by their address, for the title. */
const TOP_SECTIONS: ReadonlyArray<[prefix: string, label: MessageKey]> = [
  ['/console/bots', 'nav.bots'],
  ['/console/team', 'nav.team'],
  ['/console/settings', 'nav.settings'],
  ['/console/audit', 'nav.audit'],
  ['/console/usage', 'nav.usage'],
  ['/console/account', 'nav.account'],
];

/** A page's title, most specific first: "Files · Acme help · Parley". */
export function titleOf(parts: ReadonlyArray<string | undefined>): string {
  return [...parts.filter((part): part is string => Boolean(part)), 'Parley'].join(' · ');
}

/** Sets the document's title while `title` is given. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title !== undefined) document.title = title;
  }, [title]);
}

/**
 * The signed-in page's title from its address: "Page · Bot · Parley" on a bot's pages (the bot's name from the
 * same cache as its frame), "Page · Parley" elsewhere.
 */
export function useSignedInTitle(): void {
  const { path } = useLocation();
  const { client, workspace } = useConsole();
  const bot = /^\/console\/bots\/([^/]+)(\/[^/]+)?/.exec(path);
  const id = bot?.[1] ? decodeURIComponent(bot[1]) : '';
  const named = useLoad(['bot', workspace?.id, id], () => client.getBot({ id }).then((r) => r.bot), {
    enabled: id !== '',
  });
  let title: string;
  if (id) {
    const section = BOT_SECTIONS.find((s) => s.path === (bot?.[2] ?? ''))?.label;
    title = titleOf([
      t(section ?? 'title.notFound'),
      named.data ? named.data.name || t('bots.unnamed') : undefined,
    ]);
  } else if (path === '/console/' || path === '/console') {
    title = titleOf([t('nav.bots')]);
  } else {
    title = titleOf([t(TOP_SECTIONS.find(([prefix]) => path === prefix)?.[1] ?? 'title.notFound')]);
  }
  useDocumentTitle(title);
}
