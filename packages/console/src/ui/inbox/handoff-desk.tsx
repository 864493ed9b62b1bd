import type { ChangeConversationHandoffInput, ConversationHandoffResponse } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { formatDateTime } from '../../format.js';
import { useAction, useLoad } from '../../hooks.js';
import { Notice } from '../notice.js';
import { LIVE_EVERY_MS } from './inbox-page.js';

type ConversationHandoff = ConversationHandoffResponse['handoff'];
type HandoffAction = ChangeConversationHandoffInput['action'];

/** Who answers the conversation, in words. */
function stateWords(handoff: ConversationHandoff) {
  switch (handoff.state) {
    case 'pending':
      return (
        <>
          Waiting for a person
          {handoff.waitingSince ? (
            <>
              {' '}
              since <time dateTime={handoff.waitingSince}>{formatDateTime(handoff.waitingSince)}</time>
            </>
          ) : null}
        </>
      );
    case 'assigned':
      return <>Answered by {handoff.assignedTo?.name ?? 'a person'}; the bot is silent</>;
    case 'resolved':
      return <>Resolved; the bot answers</>;
    default:
      return <>The bot answers</>;
  }
}

/** The buttons that apply to a state: take over unless a person has it, hand back or resolve while one is asked for or has it. */
const ACTIONS: {
  action: HandoffAction;
  label: string;
  applies(state: ConversationHandoff['state']): boolean;
}[] = [
  { action: 'take', label: 'Take over', applies: (state) => state !== 'assigned' },
  {
    action: 'hand_back',
    label: 'Hand back',
    applies: (state) => state === 'pending' || state === 'assigned',
  },
  { action: 'resolve', label: 'Resolve', applies: (state) => state === 'pending' || state === 'assigned' },
];

/**
 * The desk of a conversation (human handoff), for roles that may take one over: who answers it, "Take over",
 * "Hand back" and "Resolve", and a reply box posting the person's message under their name (which takes the
 * conversation over when nobody has it). `onChanged` reloads the transcript.
 */
export function HandoffDesk({
  botId,
  conversationId,
  onChanged,
}: {
  botId: string;
  conversationId: string;
  onChanged(): void;
}) {
  const { client, workspace } = useConsole();
  const handoff = useLoad(
    ['conversation-handoff', workspace?.id, botId, conversationId],
    () => client.getConversationHandoff({ id: botId, conversationId }),
    { every: LIVE_EVERY_MS },
  );
  const { pending, error, run } = useAction();
  const [text, setText] = useState('');
  const changed = () => {
    handoff.reload();
    onChanged();
  };
  const change = async (action: HandoffAction) => {
    if (await run(() => client.changeConversationHandoff({ id: botId, conversationId, action }))) changed();
  };
  const send = async (event: Event) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    const sent = await run(() =>
      client.createAgentMessage({ id: botId, conversationId, payload: { type: 'text', text: value } }),
    );
    if (!sent) return;
    setText('');
    changed();
  };
  const current = handoff.data?.handoff;
  return (
    <section class="card stack handoff-desk" aria-label="Handoff">
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
              {a.label}
            </button>
          ))}
        </div>
      ) : null}
      <form class="stack" onSubmit={send}>
        <div class="field">
          <label for="handoff-reply">Reply</label>
          <textarea
            id="handoff-reply"
            rows={3}
            aria-describedby="handoff-reply-hint"
            value={text}
            onInput={(event) => setText(event.currentTarget.value)}
          />
          <p id="handoff-reply-hint" class="hint">
            Markdown. The visitor sees it under your name; replying takes the conversation over.
          </p>
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={pending || text.trim() === ''}>
            Send
          </button>
        </div>
      </form>
      <Notice error={error} />
    </section>
  );
}
