import type { AuditRecord, Member } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { formatBytes, formatDateTime } from '../../format.js';
import { useLoad, useOwnMember } from '../../hooks.js';
import { mayReadAudit } from '../../roles.js';
import { ListState } from '../list-state.js';
import { SelectField } from '../select-field.js';
import { WorkspaceFrame } from '../workspace-frame.js';
import { AUDIT_ACTIONS, actionLabel } from './audit-actions.js';
import { type AuditNames, describeValue } from './audit-words.js';
import { Pager, usePager } from './pager.js';

const PAGE_SIZE = 20;

/** A member as people know them: the name and e-mail, or the e-mail. */
function memberName(member: Member): string {
  return member.displayName ? `${member.displayName} (${member.email})` : member.email;
}

/** Who did it, in words: the member's name or e-mail, else the record's e-mail, else the system. */
function actorName(record: AuditRecord, names: AuditNames): string {
  if (record.userId) return names.member(record.userId) ?? record.userEmail ?? 'a former member';
  return record.userEmail ?? 'Parley (system)';
}

/** One record: what, when, by whom, on what (its name), and what changed, in words. */
function AuditRow({ record, names }: { record: AuditRecord; names: AuditNames }) {
  const change = describeValue(record, names, formatBytes);
  return (
    <li class="list-row audit-row">
      <span class="list-title">{actionLabel(record.action)}</span>
      <span class="muted">
        <time dateTime={record.recordedAt}>{formatDateTime(record.recordedAt)}</time> by{' '}
        {actorName(record, names)}
      </span>
      {record.resourceName || change ? (
        <span class="audit-detail">
          {record.resourceName ? `On ${record.resourceName}` : ''}
          {record.resourceName && change ? ': ' : ''}
          {change}
        </span>
      ) : null}
    </li>
  );
}

/** The filters of the audit page: by action and by actor (a member). */
function AuditFilters(props: {
  action: string;
  actor: string;
  members: Member[];
  onAction(value: string): void;
  onActor(value: string): void;
}) {
  return (
    <fieldset class="filters">
      <legend class="visually-hidden">Filters</legend>
      <SelectField
        id="audit-action"
        label="Action"
        value={props.action}
        choices={[{ value: '', label: 'All actions' }, ...AUDIT_ACTIONS]}
        onValue={props.onAction}
      />
      <SelectField
        id="audit-actor"
        label="Actor"
        value={props.actor}
        choices={[
          { value: '', label: 'Everyone' },
          ...props.members.flatMap((m) => (m.userId ? [{ value: m.userId, label: memberName(m) }] : [])),
        ]}
        onValue={props.onActor}
      />
    </fieldset>
  );
}

/** The workspace's audit records, newest first, filtered by action and actor, a page at a time. */
export function AuditPage() {
  const { client, workspace } = useConsole();
  const me = useOwnMember();
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const pager = usePager(`${action} ${actor}`);
  const allowed = mayReadAudit(me.data?.role);
  const members = useLoad(['members', workspace?.id], () =>
    workspace ? client.list.workspaceMembers().collect() : Promise.resolve([]),
  );
  const bots = useLoad(['bots', workspace?.id], () =>
    workspace ? client.list.bots({ sortField: 'name', sortDirection: 'asc' }).collect() : Promise.resolve([]),
  );
  const names: AuditNames = {
    member: (accountId) => {
      const m = members.data?.find((member) => member.userId === accountId);
      return m ? memberName(m) : undefined;
    },
    bot: (botId) => bots.data?.find((bot) => bot.id === botId)?.name,
  };
  const filter = {
    ...(action ? { action } : {}),
    ...(actor ? { userId: actor } : {}),
    ...(pager.token ? { nextToken: pager.token } : {}),
  };
  const records = useLoad(
    ['audit', workspace?.id, filter],
    () => client.getAuditRecords({ id: workspace?.id ?? '', pageSize: PAGE_SIZE, ...filter }),
    { enabled: Boolean(workspace) && allowed },
  );

  return (
    <WorkspaceFrame title="Audit records">
      {me.data && !allowed ? (
        <p class="hint">Only managers, administrators and owners read the audit records.</p>
      ) : null}
      {allowed ? (
        <>
          <AuditFilters
            action={action}
            actor={actor}
            members={members.data ?? []}
            onAction={setAction}
            onActor={setActor}
          />
          <ListState
            of={{
              error: records.error ?? members.error,
              loading: records.fetching,
              data: records.data?.records,
            }}
            loadingWords="Loading audit records…"
            empty={
              action || actor
                ? 'No records match these filters. Choose "All actions" or "Everyone" to see more.'
                : 'No records yet. Every change made through the Admin API or the Console is recorded here.'
            }
            label="Audit records"
            row={(record) => <AuditRow key={record.id} record={record} names={names} />}
          />
          <Pager label="Audit record pages" pager={pager} nextToken={records.data?.meta.nextToken} />
        </>
      ) : null}
    </WorkspaceFrame>
  );
}
