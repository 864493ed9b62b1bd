import { CopyField } from '../copy-field.js';

/** The script tag that embeds the bot's webchat on a site, and the link to its hosted chat page. */
export function EmbedCard({ botId }: { botId: string }) {
  const origin = window.location.origin;
  const snippet = `<script src="${origin}/webchat/v1/inject.js" data-bot-id="${botId}" async></script>`;
  const hosted = `${origin}/webchat/${encodeURIComponent(botId)}`;
  return (
    <section class="card stack" aria-labelledby="designer-embed-title">
      <h2 id="designer-embed-title">Put it on a site</h2>
      <p class="muted">Paste the snippet before the end of the page's body, or share the hosted chat page.</p>
      <CopyField
        id="designer-snippet"
        class="designer-copy"
        label="Embed snippet"
        copyLabel="Copy snippet"
        value={snippet}
        long
      />
      <CopyField
        id="designer-hosted"
        class="designer-copy"
        label="Hosted chat page"
        copyLabel="Copy link"
        value={hosted}
        below
      />
      <p>
        <a href={hosted} target="_blank" rel="noopener">
          Open the hosted chat page
        </a>
      </p>
    </section>
  );
}
