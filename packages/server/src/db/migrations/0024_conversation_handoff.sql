-- Human handoff (issue #35): who owns a conversation, `bot` (the default), `pending` (waiting for a person
-- since `waiting_since`), `assigned` (to the account `assigned_to`, named `assigned_name`) or `resolved` (the
-- bot answers again); when a person first replied and when it was resolved. One column per statement: SQLite
-- adds one at a time.

alter table chat_conversations add column handoff_state text not null default 'bot';
alter table chat_conversations add column waiting_since text;
alter table chat_conversations add column assigned_to text;
alter table chat_conversations add column assigned_name text;
alter table chat_conversations add column first_human_reply_at text;
alter table chat_conversations add column resolved_at text;
create index chat_conversations_bot_handoff on chat_conversations (bot_id, handoff_state, waiting_since);
