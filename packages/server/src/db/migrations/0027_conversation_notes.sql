-- Internal notes of the inbox desk (issue #35, item 4): what the workspace's people write beside a
-- conversation, never sent to its visitor (no Chat API reads this table); gone with the conversation or bot.

create table conversation_notes (
  id text primary key,
  bot_id text not null references bots(id) on delete cascade,
  conversation_id text not null,
  author_id text not null,
  author_name text not null,
  text text not null,
  created_at text not null
);
create index conversation_notes_conversation on conversation_notes (bot_id, conversation_id, created_at, id);
