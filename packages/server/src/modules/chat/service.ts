import { composeUseCases } from '../use-cases.js';
import { chatActivity } from './activity.js';
import { chatAuth } from './auth.js';
import type { ChatContext, ChatServiceDeps } from './context.js';
import type { ChatService } from './contract.js';
import { chatConversations } from './conversations.js';
import { chatEvents } from './events.js';
import { chatExport } from './export.js';
import { chatFiles } from './files.js';
import { chatHandoff } from './handoff.js';
import { chatHandoffTimeout } from './handoff-timeout.js';
import { chatInbox } from './inbox.js';
import { chatMessages } from './messages.js';
import { chatNotes } from './notes.js';
import { chatParticipants } from './participants.js';
import { chatReplies } from './replies.js';
import { chatSecrets } from './secrets.js';
import { chatSignals, signalWriter } from './signals.js';
import { chatUsers } from './users.js';

export type { ChatServiceDeps } from './context.js';
export * from './contract.js';
export { toMessage } from './records.js';

/**
 * The Chat API ({@link ChatService}), composed of its use cases: auth, users, conversations, participants,
 * messages, events, files, signals (the live streams), secrets, replies and the owners' inbox. Each is a plain object of plain
 * functions built from explicit dependencies; they share only the signal writer (see signals.ts).
 * @example const chat = chatService({ db, dialect, clock, bots, files, auth, jobs, bus, signalRetentionMs, audit, members });
 */
export function chatService(deps: ChatServiceDeps): ChatService {
  const { clock } = deps;
  const ctx: ChatContext = {
    ...deps,
    now: () => clock().toISOString(),
    withSignals: signalWriter(deps),
  };
  return composeUseCases(
    ctx,
    chatAuth,
    chatUsers,
    chatConversations,
    chatParticipants,
    chatMessages,
    chatEvents,
    chatFiles,
    chatSignals,
    chatSecrets,
    chatReplies,
    chatActivity,
    chatInbox,
    chatNotes,
    chatHandoff,
    chatHandoffTimeout,
    chatExport,
  );
}
