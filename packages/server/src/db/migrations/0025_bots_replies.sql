-- The bot's own reply texts (issue #33, item 5): JSON {notFound?, intro?, clarify?}; `{}` (every default) for
-- existing bots.

alter table bots add column replies text not null default '{}';
