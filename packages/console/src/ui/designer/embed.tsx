import { t } from '../../i18n.js';
import { CopyField } from '../copy-field.js';

/** The script tag that embeds the bot's webchat on a site, and the link to its hosted chat page. */
export function EmbedCard({ botId }: { botId: string }) {
  const origin = window.location.origin;
  const snippet = `<script src="${origin}/webchat/v1/inject.js" data-bot-id="${botId}" async></script>`;
  const hosted = `${origin}/webchat/${encodeURIComponent(botId)}`;
  return (
    <section class="card stack" aria-labelledby="designer-embed-title">
      <h2 id="designer-embed-title">{t('designer.embedTitle')}</h2>
      <p class="muted">{t('designer.embedLead')}</p>
      <CopyField
        id="designer-snippet"
        class="designer-copy"
        label={t('designer.snippet')}
        copyLabel={t('designer.copySnippet')}
        value={snippet}
        long
      />
      <CopyField
        id="designer-hosted"
        class="designer-copy"
        label={t('designer.hosted')}
        copyLabel={t('invite.copyLink')}
        value={hosted}
        below
      />
      <p>
        <a href={hosted} target="_blank" rel="noopener">
          {t('designer.openHosted')}
        </a>
      </p>
    </section>
  );
}
