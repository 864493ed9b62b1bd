import type { ColumnType, Generated } from 'kysely';

/* Row types of the Chat API: secrets, users, conversations and their notes, participants, messages, events,
 * signals. Timestamps are ISO 8601 text; booleans are 0/1. */

export interface ChatSecretsTable {
  bot_id: string;
  user_key_secret: string;
  webhook_secret: string;
  created_at: string;
  rotated_at: string | null;
}

export interface ChatUsersTable {
  bot_id: string;
  id: string;
  name: string | null;
  picture_url: string | null;
  /** JSON object or null. */
  data: string | null;
  user_key: string | null;
  is_bot: number;
  created_at: string;
  updated_at: string;
}

export interface ChatConversationsTable {
  bot_id: string;
  id: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  /** Who answers (HandoffState): bot | pending | assigned | resolved; `bot` when an insert leaves it out. */
  handoff_state: ColumnType<string, string | undefined, string>;
  /** Since when a visitor waits for a person (state pending). */
  waiting_since: ColumnType<string | null, string | null | undefined, string | null>;
  /** The account a conversation is assigned to, and that person's name as the visitor sees it. */
  assigned_to: ColumnType<string | null, string | null | undefined, string | null>;
  assigned_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a person first replied in it. */
  first_human_reply_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a person last resolved it. */
  resolved_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a person was first asked for in it (insights: handoff rate, wait to the first human reply). */
  handoff_requested_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** The e-mail address the visitor left when nobody came (human handoff). */
  visitor_email: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An internal note of the inbox desk beside a conversation (never shown to its visitor). */
export interface ConversationNotesTable {
  id: string;
  bot_id: string;
  conversation_id: string;
  /** The account of the person who wrote it, and their name then. */
  author_id: string;
  author_name: string;
  text: string;
  created_at: string;
}

export interface ChatParticipantsTable {
  bot_id: string;
  conversation_id: string;
  user_id: string;
  joined_at: string;
}

export interface ChatMessagesTable {
  id: string;
  bot_id: string;
  conversation_id: string;
  user_id: string;
  is_bot: number;
  /** JSON message payload. */
  payload: string;
  metadata: string | null;
  feedback: string | null;
  /** The user message a bot reply answers (idempotent reply jobs). */
  reply_to: string | null;
  created_at: string;
  /** How a bot reply was made (its answer mode: `not_found`, `passages`, `generated`…); null otherwise. */
  answer: string | null;
  /** JSON: the retrieval details of a bot reply (what its `debug` signal carried); null otherwise. */
  details: string | null;
}

export interface ChatEventsTable {
  id: string;
  bot_id: string;
  conversation_id: string;
  user_id: string;
  payload: string;
  created_at: string;
}

export interface ChatSignalsTable {
  cursor: Generated<number>;
  bot_id: string;
  conversation_id: string;
  type: string;
  /** JSON signal data. */
  data: string;
  /** 1: only streams opened with the webchat adminKey receive it (debug). */
  admin_only: number;
  created_at: string;
}
