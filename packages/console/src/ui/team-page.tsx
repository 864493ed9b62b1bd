import { useConsole } from '../context.js';
import { useLoad, useOwnMember } from '../hooks.js';
import { t } from '../i18n.js';
import { grantableRoles, mayChangeMember, mayManageMembers } from '../roles.js';
import { InviteMemberForm } from './invite-member-form.js';
import { ListState } from './list-state.js';
import { MemberRow } from './member-row.js';
import { WorkspaceFrame } from './workspace-frame.js';

/** The chosen workspace's members and pending invitations; owners and administrators invite, change, remove. */
export function TeamPage() {
  const { client, workspace } = useConsole();
  const me = useOwnMember();
  const members = useLoad(['members', workspace?.id], () =>
    workspace ? client.list.workspaceMembers().collect() : Promise.resolve([]),
  );

  const roles = grantableRoles(me.data?.role);
  return (
    <WorkspaceFrame title={t('nav.team')}>
      {mayManageMembers(me.data?.role) ? (
        <InviteMemberForm roles={roles} onInvited={members.reload} />
      ) : me.data ? (
        <p class="hint">{t('team.onlyAdmins')}</p>
      ) : null}
      <ListState
        of={{ error: members.error ?? me.error, loading: members.loading, data: members.data }}
        loadingWords={t('team.loading')}
        label={t('team.members')}
        row={(member) => (
          <MemberRow
            key={member.id}
            member={member}
            isMe={member.id === me.data?.id}
            roles={mayChangeMember(me.data ?? undefined, member) ? roles : []}
            onChanged={members.reload}
          />
        )}
      />
    </WorkspaceFrame>
  );
}
