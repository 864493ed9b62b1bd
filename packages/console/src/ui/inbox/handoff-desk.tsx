import type { ChangeConversationHandoffInput, ConversationHandoffResponse } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { formatDateTime } from '../../format.js';
import { useAction, useLoad } from '../../hooks.js';
import { type MessageKey, t } from '../../i18n.js';
import { mayHandoff } from '../../roles.js';
import { Notice } from '../notice.js';
import { deskKeys } from './desk-live.js';
import { ReplyBox } from './reply-box.js';

type ConversationHandoff = ConversationHandoffResponse['handoff'];
type HandoffAction = ChangeConversationHandoffInput['action'];

/** Who answers the conversation, in words. */
function stateWords(handoff: ConversationHandoff) {
  switch (handoff.state) {
    case 'pending':
      return (
        <>
          {t('handoff.waiting')}
          {handoff.waitingSince ? (
            <>
              {' '}
              {t('handoff.since')}{' '}
              <time dateTime={handoff.waitingSince}>{formatDateTime(handoff.waitingSince)}</time>
            </>
          ) : null}
        </>
      );
    case 'assigned':
      return <>{t('handoff.assigned', { name: handoff.assignedTo?.name ?? t('handoff.aPerson') })}</>;
    case 'resolved':
      return <>{t('handoff.resolved')}</>;
    default:
      return <>{t('handoff.bot')}</>;
  }
}

/** The buttons that apply to a state: take over unless a person has it, hand back or resolve while one is asked for or has it. */
const ACTIONS: {
  action: HandoffAction;
  label: MessageKey;
  applies(state: ConversationHandoff['state']): boolean;
}[] = [
  { action: 'take', label: 'handoff.take', applies: (state) => state !== 'assigned' },
  {
    action: 'hand_back',
    label: 'handoff.handBack',
    applies: (state) => state === 'pending' || state === 'assigned',
  },
  {
    action: 'resolve',
    label: 'handoff.resolve',
    applies: (state) => state === 'pending' || state === 'assigned',
  },
];

/** "Assign to…": a picker of the active members who may answer conversations, and the button giving it to one. */
function AssignTo({
  current,
  pending,
  assign,
}: {
  current: ConversationHandoff;
  pending: boolean;
  assign(memberId: string): void;
}) {
  const { client, workspace } = useConsole();
  const members = useLoad(['members', workspace?.id], () => client.list.workspaceMembers().collect());
  const [chosen, setChosen] = useState('');
  const choices = (members.data ?? []).filter(
    (m) => m.status === 'active' && mayHandoff(m.role) && m.userId !== current.assignedTo?.accountId,
  );
  if (choices.length === 0) return null;
  return (
    <form
      class="assign-to"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen) assign(chosen);
      }}
    >
      <label for="assign-member">{t('handoff.assignTo')}</label>
      <select id="assign-member" value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
        <option value="">{t('handoff.chooseMember')}</option>
        {choices.map((m) => (
          <option key={m.id} value={m.id}>
            {m.displayName ? `${m.displayName} (${m.email})` : m.email}
          </option>
        ))}
      </select>
      <button type="submit" disabled={pending || chosen === ''}>
        {t('handoff.assign')}
      </button>
    </form>
  );
}

/**
 * The desk of a conversation (human handoff), for roles that may take one over: who answers it, "Take over",
 * "Assign to…", "Hand back" and "Resolve" where they apply, and the reply box (replying takes the
 * conversation over when nobody has it). Followed live with the transcript (useDeskLive).
 */
export function HandoffDesk({ botId, conversationId }: { botId: string; conversationId: string }) {
  const { client, workspace, account } = useConsole();
  const handoff = useLoad(deskKeys.handoff(workspace?.id, botId, conversationId), () =>
    client.getConversationHandoff({ id: botId, conversationId }),
  );
  const { pending, error, run } = useAction();
  const change = async (action: HandoffAction, memberId?: string) => {
    const body = { id: botId, conversationId, action, ...(memberId ? { memberId } : {}) };
    if (await run(() => client.changeConversationHandoff(body))) handoff.reload();
  };
  const current = handoff.data?.handoff;
  return (
    <section class="card stack handoff-desk" aria-label={t('handoff.label')}>
      <Notice error={handoff.error} />
      {current ? (
        <p class="handoff-state" data-state={current.state} role="status">
          {stateWords(current)}
        </p>
      ) : null}
      {current ? (
        <div class="actions">
          {ACTIONS.filter((a) => a.applies(current.state)).map((a) => (
            <button key={a.action} type="button" disabled={pending} onClick={() => void change(a.action)}>
              {t(a.label)}
            </button>
          ))}
          <AssignTo current={current} pending={pending} assign={(id) => void change('assign', id)} />
        </div>
      ) : null}
      <Notice error={error} />
      <ReplyBox
        botId={botId}
        conversationId={conversationId}
        mine={current?.state === 'assigned' && current.assignedTo?.accountId === account.id}
        onSent={handoff.reload}
      />
    </section>
  );
}
