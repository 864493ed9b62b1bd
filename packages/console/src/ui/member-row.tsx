import type { Member, Role } from '@parley/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useConsole } from '../context.js';
import { useAction } from '../hooks.js';
import { t } from '../i18n.js';
import { roleName } from '../roles.js';
import { Notice } from './notice.js';
import { PendingInvitation } from './pending-invitation.js';
import { RoleSelect } from './role-select.js';

/**
 * One member or pending invitation: name, e-mail, role and state; with `roles`, its role can be changed and
 * the member removed, or the invitation revoked (after a confirmation naming them), and a pending invitation
 * shows its expiry and "Copy link".
 */
export function MemberRow({
  member,
  isMe,
  roles,
  onChanged,
}: {
  member: Member;
  isMe: boolean;
  /** The roles the signed-in person may give this member; none when they may not change it. */
  roles: readonly Role[];
  onChanged(): void;
}) {
  const { client } = useConsole();
  const [role, setRole] = useState<Role>(member.role);
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const { pending, error, run } = useAction();
  const cancel = useRef<HTMLButtonElement>(null);
  const who = member.displayName || member.email;
  const invited = member.status === 'invited';

  useEffect(() => setRole(member.role), [member.role]);
  useEffect(() => {
    if (confirming) cancel.current?.focus();
  }, [confirming]);

  async function saveRole() {
    setSaved(undefined);
    const answer = await run(() => client.updateWorkspaceMember({ id: member.id, role }));
    if (answer) {
      setSaved(t('member.nowRole', { name: who, role: roleName(answer.role).toLowerCase() }));
      onChanged();
    }
  }
  async function remove() {
    const answer = await run(() => client.removeWorkspaceMember({ id: member.id }));
    if (answer) onChanged();
  }

  return (
    <li class="list-row member-row">
      <div class="member-who">
        <span class="list-title">
          {who}
          {isMe ? t('member.you') : ''}
        </span>
        {member.displayName ? <span class="muted">{member.email}</span> : null}
      </div>
      <span class={`badge badge-${member.status === 'active' ? 'active' : 'invited'}`}>
        {t(member.status === 'active' ? 'member.active' : 'member.invited')}
      </span>
      {roles.length === 0 ? (
        <span>{roleName(member.role)}</span>
      ) : (
        <div class="member-actions">
          <RoleSelect
            id={`role-${member.id}`}
            label={t('member.roleOf', { email: member.email })}
            value={role}
            roles={roles}
            onRole={setRole}
          />
          <button type="button" onClick={saveRole} disabled={pending || role === member.role}>
            {t('member.saveRole')}
          </button>
          {confirming ? (
            <div class="actions">
              <span>
                {t(invited ? 'member.revokeAsk' : 'member.removeAsk')}
                <strong>{who}</strong>
                {t(invited ? 'member.revokeWhy' : 'member.removeWhy')}
              </span>
              <button type="button" class="danger" onClick={remove} disabled={pending}>
                {t(invited ? 'member.yesRevoke' : 'member.yesRemove')}
              </button>
              <button type="button" ref={cancel} onClick={() => setConfirming(false)} disabled={pending}>
                {t('action.cancel')}
              </button>
            </div>
          ) : (
            <button type="button" class="danger" onClick={() => setConfirming(true)}>
              {t(invited ? 'member.revoke' : 'member.remove')}
            </button>
          )}
        </div>
      )}
      <Notice error={error} done={saved} />
      {invited && roles.length > 0 ? <PendingInvitation member={member} onRenewed={onChanged} /> : null}
    </li>
  );
}
