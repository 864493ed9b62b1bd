-- Human handoff, the rest of issue #35: a bot's handoff settings (JSON BotHandoff: wait, opening hours, the
-- not-found offer, the handoff webhook; `{}` for existing bots), when a person was first asked for in a
-- conversation (its earlier waits are taken as that time) and the e-mail address a visitor left.

alter table bots add column handoff text not null default '{}';
alter table chat_conversations add column handoff_requested_at text;
alter table chat_conversations add column visitor_email text;

update chat_conversations set handoff_requested_at = waiting_since
  where waiting_since is not null;
