import type { BotConversation } from '@parley/client';
import { consoleLocale, t } from '../../i18n.js';

type Visitor = NonNullable<BotConversation['visitor']>;

/**
 * A browser language tag in words of the Console's language, where the browser knows it: `fr-CA` → "French
 * (Canada) · fr-CA" ("français (Canada) · fr-CA" in French).
 */
function languageWords(tag: string): string {
  try {
    const name = new Intl.DisplayNames(consoleLocale(), { type: 'language' }).of(tag);
    return name && name !== tag ? `${name} · ${tag}` : tag;
  } catch {
    return tag;
  }
}

/**
 * What is known of the conversation's visitor: their name, the e-mail address they gave, the page they wrote
 * from (a link) and their browser's language; what is unknown is said so.
 */
export function VisitorDetails({ visitor }: { visitor: Visitor }) {
  return (
    <section class="card visitor-details" aria-labelledby="visitor-heading">
      <h3 id="visitor-heading">{t('visitor.title')}</h3>
      <dl>
        <dt>{t('visitor.name')}</dt>
        <dd>{visitor.name ?? <span class="muted">{t('visitor.notGiven')}</span>}</dd>
        <dt>{t('visitor.email')}</dt>
        <dd>
          {visitor.email ? (
            <a href={`mailto:${visitor.email}`}>{visitor.email}</a>
          ) : (
            <span class="muted">{t('visitor.notGiven')}</span>
          )}
        </dd>
        <dt>{t('visitor.page')}</dt>
        <dd>
          {visitor.page && /^https?:\/\//i.test(visitor.page) ? (
            <a href={visitor.page} target="_blank" rel="noopener noreferrer">
              {visitor.page}
            </a>
          ) : (
            (visitor.page ?? <span class="muted">{t('visitor.unknown')}</span>)
          )}
        </dd>
        <dt>{t('visitor.language')}</dt>
        <dd>
          {visitor.language ? (
            languageWords(visitor.language)
          ) : (
            <span class="muted">{t('visitor.unknown')}</span>
          )}
        </dd>
      </dl>
    </section>
  );
}
