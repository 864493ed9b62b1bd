import { useRef, useState } from 'preact/hooks';
import { Notice } from '../notice.js';

/** A read-only value (a textarea when long) with a button that copies it. */
function Copyable({
  id,
  label,
  copyLabel,
  value,
  long,
}: {
  id: string;
  label: string;
  copyLabel: string;
  value: string;
  long?: boolean;
}) {
  const input = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [copied, setCopied] = useState<string | undefined>(undefined);
  const [failed, setFailed] = useState<string | undefined>(undefined);
  async function copy() {
    setCopied(undefined);
    setFailed(undefined);
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied.');
    } catch {
      input.current?.select();
      setFailed('This browser did not allow copying: the text is selected, copy it with your keyboard.');
    }
  }
  return (
    <div class="stack designer-copy">
      <div class="field">
        <label for={id}>{label}</label>
        {long ? (
          <textarea id={id} ref={input} readOnly rows={3} value={value} spellcheck={false} />
        ) : (
          <input id={id} ref={input} type="text" readOnly value={value} spellcheck={false} />
        )}
      </div>
      <div class="actions">
        <button type="button" onClick={copy}>
          {copyLabel}
        </button>
      </div>
      <Notice error={failed} done={copied} />
    </div>
  );
}

/** The script tag that embeds the bot's webchat on a site, and the link to its hosted chat page. */
export function EmbedCard({ botId }: { botId: string }) {
  const origin = window.location.origin;
  const snippet = `<script src="${origin}/webchat/v1/inject.js" data-bot-id="${botId}" async></script>`;
  const hosted = `${origin}/webchat/${encodeURIComponent(botId)}`;
  return (
    <section class="card stack" aria-labelledby="designer-embed-title">
      <h2 id="designer-embed-title">Put it on a site</h2>
      <p class="muted">Paste the snippet before the end of the page's body, or share the hosted chat page.</p>
      <Copyable id="designer-snippet" label="Embed snippet" copyLabel="Copy snippet" value={snippet} long />
      <Copyable id="designer-hosted" label="Hosted chat page" copyLabel="Copy link" value={hosted} />
      <p>
        <a href={hosted} target="_blank" rel="noopener">
          Open the hosted chat page
        </a>
      </p>
    </section>
  );
}
