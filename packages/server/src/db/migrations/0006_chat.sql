-- The Chat API (modules/chat): per-bot chat users and secrets, conversations, participants, messages and
-- events (the signal log, whose key differs by engine, is made by 0006_chat.ts after these). Users and
-- conversations are keyed per bot, since a site may choose their ids (verified identity, get-or-create). A
-- bot's chat data goes with the bot (cascade).

create table chat_secrets (
  bot_id text primary key references bots(id) on delete cascade,
  user_key_secret text not null,
  webhook_secret text not null,
  created_at text not null,
  rotated_at text
);

create table chat_users (
  bot_id text not null references bots(id) on delete cascade,
  id text not null,
  name text,
  picture_url text,
  data text,
  user_key text,
  is_bot integer not null default 0,
  created_at text not null,
  updated_at text not null,
  constraint chat_users_pk primary key (bot_id, id)
);

create table chat_conversations (
  bot_id text not null references bots(id) on delete cascade,
  id text not null,
  created_by text not null,
  created_at text not null,
  updated_at text not null,
  constraint chat_conversations_pk primary key (bot_id, id)
);
create index chat_conversations_bot_updated on chat_conversations (bot_id, updated_at, id);

create table chat_participants (
  bot_id text not null references bots(id) on delete cascade,
  conversation_id text not null,
  user_id text not null,
  joined_at text not null,
  constraint chat_participants_pk primary key (bot_id, conversation_id, user_id)
);
create index chat_participants_user on chat_participants (bot_id, user_id);

create table chat_messages (
  id text primary key,
  bot_id text not null references bots(id) on delete cascade,
  conversation_id text not null,
  user_id text not null,
  is_bot integer not null,
  payload text not null,
  metadata text,
  feedback text,
  reply_to text,
  created_at text not null
);
create index chat_messages_conversation on chat_messages (bot_id, conversation_id, created_at, id);
create index chat_messages_user on chat_messages (bot_id, user_id);
create index chat_messages_reply_to on chat_messages (bot_id, reply_to);

create table chat_events (
  id text primary key,
  bot_id text not null references bots(id) on delete cascade,
  conversation_id text not null,
  user_id text not null,
  payload text not null,
  created_at text not null
);
create index chat_events_conversation on chat_events (bot_id, conversation_id);
