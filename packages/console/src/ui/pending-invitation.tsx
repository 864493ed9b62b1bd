import type { Member } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { formatDateTime } from '../format.js';
import { useAction } from '../hooks.js';
import { t } from '../i18n.js';
import { InvitationLink } from './invitation-link.js';
import { Notice } from './notice.js';

/**
 * A pending invitation's expiry and its "Copy link" button. Parley keeps only a hash of an invitation code, so
 * a link is never shown twice: "Copy link" asks for a new one (valid 7 days from now) and copies it; the link
 * sent before stops working. The new link stays shown, to copy by hand when the browser refuses.
 */
export function PendingInvitation({ member, onRenewed }: { member: Member; onRenewed(): void }) {
  const { client } = useConsole();
  const { pending, error, run } = useAction();
  const [link, setLink] = useState<{ code: string; copied: boolean } | undefined>(undefined);
  const expires = member.invitationExpiresAt;
  const expired = expires !== undefined && Date.parse(expires) <= Date.now();

  async function renew() {
    const fresh = await run(() => client.renewWorkspaceInvitation({ id: member.id }));
    if (!fresh) return;
    const url = `${window.location.origin}/console/invite/${encodeURIComponent(fresh.code)}`;
    const copied = await navigator.clipboard.writeText(url).then(
      () => true,
      () => false,
    );
    setLink({ code: fresh.code, copied });
    onRenewed();
  }

  return (
    <div class="stack pending-invitation">
      <p class="muted">
        {expires === undefined
          ? t('invite.noLink')
          : t(expired ? 'invite.linkExpired' : 'invite.linkWorksUntil', { date: formatDateTime(expires) })}
      </p>
      <div class="actions">
        <button type="button" onClick={renew} disabled={pending}>
          {t('invite.copyLink')}
        </button>
        <span class="hint">{t('invite.newEachTime')}</span>
      </div>
      <Notice error={error} done={link?.copied ? t('invite.newLinkCopied') : undefined} />
      {link ? <InvitationLink email={member.email} code={link.code} /> : null}
    </div>
  );
}
