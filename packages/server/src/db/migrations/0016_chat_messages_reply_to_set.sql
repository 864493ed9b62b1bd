-- A message's reply_to is set on the bot's answers only: the index of (bot, reply_to) had an entry, nearly
-- always NULL, for every message, and each message's commit wrote a page of it. It now holds the answers.

drop index if exists chat_messages_reply_to;
create index chat_messages_reply_to on chat_messages(bot_id, reply_to) where reply_to is not null;
