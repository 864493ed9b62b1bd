/** The chat module's rows as its repository reads and writes them (repo.ts and its parts share these). */
import type { Selectable } from 'kysely';
import type {
  ChatConversationsTable,
  ChatEventsTable,
  ChatMessagesTable,
  ChatSecretsTable,
  ChatSignalsTable,
  ChatUsersTable,
} from '../../db/tables/chat.js';

/** A chat user row. */
export type ChatUserRow = Selectable<ChatUsersTable>;
/** A conversation row. */
export type ConversationRow = Selectable<ChatConversationsTable>;
/** A message row (`answer` and `details`, a bot reply's record, may be left out when writing one: null). */
export type MessageRow = Omit<Selectable<ChatMessagesTable>, 'answer' | 'details'> & {
  answer?: string | null;
  details?: string | null;
};
/** An event row. */
export type EventRow = Selectable<ChatEventsTable>;
/** A stored stream signal. */
export type SignalRow = Selectable<ChatSignalsTable>;
/** A bot's chat secrets. */
export type SecretsRow = Selectable<ChatSecretsTable>;
