import { useRef, useState } from 'preact/hooks';
import { Notice } from './notice.js';

/** The link an invitee opens to join, with a button that copies it (no mail server: the inviter sends it). */
export function InvitationLink({ email, code }: { email: string; code: string }) {
  const link = `${window.location.origin}/console/invite/${encodeURIComponent(code)}`;
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | undefined>(undefined);
  const [failed, setFailed] = useState<string | undefined>(undefined);

  async function copy() {
    setCopied(undefined);
    setFailed(undefined);
    try {
      await navigator.clipboard.writeText(link);
      setCopied('Link copied.');
    } catch {
      input.current?.select();
      setFailed('This browser did not allow copying: the link is selected, copy it with your keyboard.');
    }
  }

  return (
    <div class="stack invitation">
      <p>
        Send this link to <strong>{email}</strong>: it opens a page where they choose a name and password. It
        works once.
      </p>
      <div class="inline-form">
        <div class="field">
          <label for="invitation-link">Invitation link</label>
          <input id="invitation-link" type="text" readOnly value={link} ref={input} />
        </div>
        <button type="button" onClick={copy}>
          Copy link
        </button>
      </div>
      <Notice error={failed} done={copied} />
    </div>
  );
}
