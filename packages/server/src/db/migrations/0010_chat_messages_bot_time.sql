-- A bot's messages by time (modules/chat repo-activity: insights over the last 7, 30 or 90 days read only the
-- period's messages, not all of the bot's).

create index chat_messages_bot_created on chat_messages (bot_id, created_at);
