import type { Role } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useFormAction } from '../hooks.js';
import { Field } from './field.js';
import { InvitationLink } from './invitation-link.js';
import { Notice } from './notice.js';
import { RoleSelect } from './role-select.js';

/** Invites someone by e-mail with a role; shows the invitation link to copy and send. */
export function InviteMemberForm({ roles, onInvited }: { roles: readonly Role[]; onInvited(): void }) {
  const { client } = useConsole();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [invitation, setInvitation] = useState<{ email: string; code: string } | undefined>(undefined);
  const { pending, error, notice, submit } = useFormAction(
    () => {
      setInvitation(undefined);
      return client.addWorkspaceMember({ email: email.trim(), role });
    },
    (answer) => {
      setEmail('');
      onInvited();
      if (answer.invitation) setInvitation({ email: answer.email, code: answer.invitation.code });
      return `${answer.email} is invited.`;
    },
  );

  return (
    <div class="card stack">
      <h2>Invite member</h2>
      <form class="inline-form invite-form" onSubmit={submit}>
        <Field
          id="invite-email"
          label="Email"
          type="email"
          required
          maxLength={320}
          value={email}
          onValue={setEmail}
        />
        <RoleSelect id="invite-role" label="Role" value={role} roles={roles} onRole={setRole} />
        <button type="submit" class="primary" disabled={pending || email.trim() === ''}>
          Invite
        </button>
      </form>
      <Notice error={error} done={notice} />
      {invitation ? <InvitationLink email={invitation.email} code={invitation.code} /> : null}
    </div>
  );
}
