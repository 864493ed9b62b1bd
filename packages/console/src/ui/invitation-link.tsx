import { CopyField } from './copy-field.js';

/** The link an invitee opens to join, with a button that copies it (no mail server: the inviter sends it). */
export function InvitationLink({ email, code }: { email: string; code: string }) {
  const link = `${window.location.origin}/console/invite/${encodeURIComponent(code)}`;
  return (
    <div class="stack invitation">
      <p>
        Send this link to <strong>{email}</strong>: it opens a page where they choose a name and password. It
        works once.
      </p>
      <CopyField
        id="invitation-link"
        label="Invitation link"
        value={link}
        copyLabel="Copy link"
        copiedText="Link copied."
        noun="link"
      />
    </div>
  );
}
