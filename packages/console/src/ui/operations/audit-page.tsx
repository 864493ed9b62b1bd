import type { AuditRecord, Member } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { formatBytes, formatDateTime } from '../../format.js';
import { useLoad, useOwnMember } from '../../hooks.js';
import { t } from '../../i18n.js';
import { mayReadAudit } from '../../roles.js';
import { ListState } from '../list-state.js';
import { SelectField } from '../select-field.js';
import { WorkspaceFrame } from '../workspace-frame.js';
import { actionChoices, actionLabel } from './audit-actions.js';
import { type AuditNames, describeValue } from './audit-words.js';
import { Pager, usePager } from './pager.js';

const PAGE_SIZE = 20;

/** A member as people know them: the name and e-mail, or the e-mail. */
function memberName(member: Member): string {
  return member.displayName ? `${member.displayName} (${member.email})` : member.email;
}

/** Who did it, in words: the member's name or e-mail, else the record's e-mail, else the system. */
function actorName(record: AuditRecord, names: AuditNames): string {
  if (record.userId) return names.member(record.userId) ?? record.userEmail ?? t('audit.formerMember');
  return record.userEmail ?? t('audit.system');
}

/** One record: what, when, by whom, on what (its name), and what changed, in words. */
function AuditRow({ record, names }: { record: AuditRecord; names: AuditNames }) {
  const change = describeValue(record, names, formatBytes);
  return (
    <li class="list-row audit-row">
      <span class="list-title">{actionLabel(record.action)}</span>
      <span class="muted">
        <time dateTime={record.recordedAt}>{formatDateTime(record.recordedAt)}</time>{' '}
        {t('audit.by', { name: actorName(record, names) })}
      </span>
      {record.resourceName || change ? (
        <span class="audit-detail">
          {record.resourceName ? t('audit.on', { name: record.resourceName }) : ''}
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
      <legend class="visually-hidden">{t('audit.filters')}</legend>
      <SelectField
        id="audit-action"
        label={t('audit.action')}
        value={props.action}
        choices={[{ value: '', label: t('audit.allActions') }, ...actionChoices()]}
        onValue={props.onAction}
      />
      <SelectField
        id="audit-actor"
        label={t('audit.actor')}
        value={props.actor}
        choices={[
          { value: '', label: t('audit.everyone') },
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
    <WorkspaceFrame title={t('audit.title')}>
      {me.data && !allowed ? <p class="hint">{t('audit.onlyManagers')}</p> : null}
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
            loadingWords={t('audit.loading')}
            empty={action || actor ? t('audit.noMatch') : t('audit.empty')}
            label={t('audit.title')}
            row={(record) => <AuditRow key={record.id} record={record} names={names} />}
          />
          <Pager label={t('audit.pages')} pager={pager} nextToken={records.data?.meta.nextToken} />
        </>
      ) : null}
    </WorkspaceFrame>
  );
}
