import type { Role } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useForm } from '../form.js';
import { useAction } from '../hooks.js';
import { t } from '../i18n.js';
import { Field } from './field.js';
import { InvitationLink } from './invitation-link.js';
import { Notice } from './notice.js';
import { RoleSelect } from './role-select.js';

/** Invites someone by e-mail with a role; shows the invitation link to copy and send. */
export function InviteMemberForm({ roles, onInvited }: { roles: readonly Role[]; onInvited(): void }) {
  const { client } = useConsole();
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [invitation, setInvitation] = useState<{ email: string; code: string } | undefined>(undefined);
  const form = useForm({ email: '', role: 'viewer' as Role }, async ({ email, role }) => {
    setNotice(undefined);
    setInvitation(undefined);
    const answer = await run(() => client.addWorkspaceMember({ email: email.trim(), role }));
    if (!answer) return;
    form.reset({ email: '', role });
    onInvited();
    if (answer.invitation) setInvitation({ email: answer.email, code: answer.invitation.code });
    setNotice(t('invite.done', { email: answer.email }));
  });
  const email = form.field('email');
  const role = form.field('role');

  return (
    <div class="card stack">
      <h2>{t('invite.title')}</h2>
      <form class="inline-form invite-form" onSubmit={form.submit}>
        <Field id="invite-email" label={t('signIn.email')} type="email" required maxLength={320} {...email} />
        <RoleSelect
          id="invite-role"
          label={t('invite.role')}
          value={role.value}
          roles={roles}
          onRole={role.onValue}
          describe
        />
        <button type="submit" class="primary" disabled={pending || email.value.trim() === ''}>
          {t('invite.submit')}
        </button>
      </form>
      <Notice error={error} done={notice} />
      {invitation ? <InvitationLink email={invitation.email} code={invitation.code} /> : null}
    </div>
  );
}
