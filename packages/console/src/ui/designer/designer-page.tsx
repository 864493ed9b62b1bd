import type { Bot, WebchatConfiguration } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { useLoad, useOwnMember } from '../../hooks.js';
import { t } from '../../i18n.js';
import { mayEditWebchat, mayReadChatSecrets, roleName } from '../../roles.js';
import { BotFrame } from '../bot-frame.js';
import { Notice } from '../notice.js';
import { DesignerForm } from './designer-form.js';
import { EmbedCard } from './embed.js';
import type { FieldName } from './fields.js';
import { WebchatPreview } from './preview.js';

/** The adminKey is a chat secret: not shown to a role that may not read it (the Admin API leaves it out). */
const SECRETS_HIDDEN: ReadonlySet<FieldName> = new Set(['adminKey']);
const NOTHING_HIDDEN: ReadonlySet<FieldName> = new Set();

/** Webchat designer: the embed snippet and hosted page first, every configuration field, a live preview, Save. */
export function DesignerPage() {
  return <BotFrame>{(bot) => <Designer bot={bot} />}</BotFrame>;
}

function Designer({ bot }: { bot: Bot }) {
  const { client, workspace } = useConsole();
  const me = useOwnMember();
  const saved = useLoad(['webchat', workspace?.id, bot.id], () =>
    client.getBotWebchat({ id: bot.id }).then((r) => r.configuration),
  );
  const role = me.data?.role;
  const canEdit = mayEditWebchat(role);
  if (!saved.data || me.loading) {
    return saved.error ? <Notice error={saved.error} /> : <p role="status">{t('designer.loading')}</p>;
  }
  return (
    <div class="stack">
      <div class="stack">
        <h2>{t('designer.title')}</h2>
        <p class="muted">{t('designer.lead')}</p>
        {!canEdit && role ? (
          <p class="notice notice-done">{t('designer.readOnly', { role: roleName(role) })}</p>
        ) : null}
      </div>
      <EmbedCard botId={bot.id} />
      <DesignerBody
        bot={bot}
        saved={saved.data}
        canEdit={canEdit}
        hidden={mayReadChatSecrets(role) ? NOTHING_HIDDEN : SECRETS_HIDDEN}
        onSaved={saved.reload}
      />
    </div>
  );
}

/** The form beside the preview (the preview first on a phone), the preview following every change. */
function DesignerBody({
  bot,
  saved,
  canEdit,
  hidden,
  onSaved,
}: {
  bot: Bot;
  saved: WebchatConfiguration;
  canEdit: boolean;
  hidden: ReadonlySet<FieldName>;
  onSaved(): void;
}) {
  const [draft, setDraft] = useState<Record<string, unknown>>(saved);
  const [generation, setGeneration] = useState(0);
  return (
    <div class="columns designer-columns">
      <section class="card stack designer-preview-card" aria-labelledby="designer-preview-title">
        <h2 id="designer-preview-title">{t('designer.preview')}</h2>
        <WebchatPreview botId={bot.id} botName={bot.name} configuration={draft} generation={generation} />
        <p class="hint">{t('designer.previewHint')}</p>
      </section>
      <DesignerForm
        botId={bot.id}
        saved={saved}
        canEdit={canEdit}
        hidden={hidden}
        onChange={setDraft}
        onSaved={() => {
          setGeneration((n) => n + 1);
          onSaved();
        }}
      />
    </div>
  );
}
