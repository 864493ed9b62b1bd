import type { ResolvedConfiguration } from '../config.js';
import { hrefOf, safeHref } from './links.js';

/** The contact and policy links a header may show, in this order. */
export const LINKS = ['phone', 'email', 'website', 'termsOfService', 'privacyPolicy'] as const;

function linkHref(kind: string, link: string): string | undefined {
  if (kind === 'phone' && !/^(tel:|https?:)/i.test(link)) return `tel:${link.replace(/[^0-9+]/g, '')}`;
  if (kind === 'email' && !/^mailto:/i.test(link)) return safeHref(`mailto:${link}`);
  return safeHref(link);
}

/** The configured links: phone and email open here, the others in a new tab. */
export function HeaderLinks({ config }: { config: ResolvedConfiguration }) {
  return (
    <ul class="pw-links">
      {LINKS.map((k) => {
        const link = config[k];
        return link ? (
          <li>
            <a
              {...hrefOf(linkHref(k, link.link))}
              data-link={k}
              {...(k === 'phone' || k === 'email' ? {} : { target: '_blank', rel: 'noopener noreferrer' })}
            >
              {link.title || link.link}
            </a>
          </li>
        ) : null;
      })}
    </ul>
  );
}
