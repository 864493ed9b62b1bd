import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { type MessageKey, t } from '../i18n.js';
import { useSignedInTitle } from './page-title.js';
import { SignOutButton } from './sign-out-button.js';
import { WorkspaceSwitcher } from './workspace-switcher.js';

/** The top bar's sections: each is the current one on the pages below its `href` (Bots also at `alsoAt`, the root). */
const SECTIONS: ReadonlyArray<{ href: string; label: MessageKey; alsoAt?: string }> = [
  { href: '/console/bots', label: 'nav.bots', alsoAt: '/console/' },
  { href: '/console/team', label: 'nav.team' },
  { href: '/console/settings', label: 'nav.settings' },
  { href: '/console/audit', label: 'nav.audit' },
  { href: '/console/usage', label: 'nav.usage' },
  { href: '/console/account', label: 'nav.account' },
];

/** Whether `path` is a page of `section`. */
const isCurrent = (section: (typeof SECTIONS)[number], path: string): boolean =>
  path === section.alsoAt || path.startsWith(section.href);

/**
 * The top bar's sections, workspace switcher and sign out behind a Menu button on a phone (styles.css shows them
 * inline on a wider screen, the button hidden): open while `open`, closed by Escape (the focus back on the
 * button) and by going to another page.
 */
function useMenu(path: string) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => setOpen(false), [path]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return { open, button, toggle: () => setOpen((was) => !was) };
}

/**
 * The frame of every signed-in page: a skip link, brand, sections, workspace switcher, sign out (behind a menu
 * button on a phone); the page below, and the page's title ("Page · Bot · Parley").
 */
export function Shell({ children }: { children: ComponentChildren }) {
  const { path } = useLocation();
  const menu = useMenu(path);
  useSignedInTitle();
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        {t('shell.skip')}
      </a>
      <header class="topbar">
        <a class="brand" href="/console/bots">
          Parley
        </a>
        <button
          type="button"
          class="menu-button"
          ref={menu.button}
          aria-expanded={menu.open}
          aria-controls="topbar-menu"
          onClick={menu.toggle}
        >
          {t('shell.menu')}
        </button>
        <div id="topbar-menu" class={menu.open ? 'topbar-menu open' : 'topbar-menu'}>
          <nav aria-label={t('shell.sections')}>
            {SECTIONS.map((section) => (
              <a
                key={section.href}
                href={section.href}
                aria-current={isCurrent(section, path) ? 'page' : undefined}
              >
                {t(section.label)}
              </a>
            ))}
          </nav>
          <div class="topbar-end">
            <WorkspaceSwitcher />
            <SignOutButton />
          </div>
        </div>
      </header>
      <main class="page" id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
