import { t } from '../i18n.js';

/** A Console address that names no page. */
export function NotFoundPage() {
  return (
    <section>
      <h1>{t('notFound.title')}</h1>
      <p>
        {t('notFound.text')} <a href="/console/bots">{t('notFound.link')}</a>.
      </p>
    </section>
  );
}
