import { t } from '../i18n.js';
import { CopyField } from './copy-field.js';

/** The link an invitee opens to join, with a button that copies it (no mail server: the inviter sends it). */
export function InvitationLink({ email, code }: { email: string; code: string }) {
  const link = `${window.location.origin}/console/invite/${encodeURIComponent(code)}`;
  return (
    <div class="stack invitation">
      <p>
        {t('invite.linkLeadAsk')}
        <strong>{email}</strong>
        {t('invite.linkLeadWhy')}
      </p>
      <CopyField
        id="invitation-link"
        label={t('invite.link')}
        value={link}
        copyLabel={t('invite.copyLink')}
        copiedText={t('invite.linkCopied')}
        noun={t('action.copyNounLink')}
      />
    </div>
  );
}
