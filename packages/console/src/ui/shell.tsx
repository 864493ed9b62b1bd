import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { useSignedInTitle } from './page-title.js';
import { SignOutButton } from './sign-out-button.js';
import { WorkspaceSwitcher } from './workspace-switcher.js';

const SECTIONS = [
  {
    href: '/console/bots',
    label: 'Bots',
    matches: (path: string) => path === '/console/' || path.startsWith('/console/bots'),
  },
  {
    href: '/console/team',
    label: 'Team',
    matches: (path: string) => path.startsWith('/console/team'),
  },
  {
    href: '/console/settings',
    label: 'Settings',
    matches: (path: string) => path.startsWith('/console/settings'),
  },
  {
    href: '/console/audit',
    label: 'Audit',
    matches: (path: string) => path.startsWith('/console/audit'),
  },
  {
    href: '/console/usage',
    label: 'Usage',
    matches: (path: string) => path.startsWith('/console/usage'),
  },
  {
    href: '/console/account',
    label: 'Account',
    matches: (path: string) => path.startsWith('/console/account'),
  },
];

/**
 * The frame of every signed-in page: a skip link, brand, sections, workspace switcher, sign out; the page below,
 * and the page's title ("Page · Bot · Parley").
 */
export function Shell({ children }: { children: ComponentChildren }) {
  const { path } = useLocation();
  useSignedInTitle();
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/console/bots">
          Parley
        </a>
        <nav aria-label="Sections">
          {SECTIONS.map((section) => (
            <a
              key={section.href}
              href={section.href}
              aria-current={section.matches(path) ? 'page' : undefined}
            >
              {section.label}
            </a>
          ))}
        </nav>
        <div class="topbar-end">
          <WorkspaceSwitcher />
          <SignOutButton />
        </div>
      </header>
      <main class="page" id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
