-- Q&A entries of a bot (modules/qa, issue #34), their wordings apart (made by 0020_qa_entries.ts after these,
-- since a vector is a blob on SQLite and bytea on PostgreSQL); `qa_revisions` counts each bot's changes, so
-- every process knows when its cached wordings are stale.

create table qa_entries (
  id text primary key,
  bot_id text not null references bots(id) on delete cascade,
  knowledge_base_id text references knowledge_bases(id) on delete set null,
  questions text not null,
  answer text not null,
  tags text not null default '{}',
  enabled integer not null default 1,
  search_text text not null,
  created_at text not null,
  updated_at text not null
);
create index qa_entries_bot on qa_entries (bot_id, id);

create table qa_revisions (
  bot_id text primary key references bots(id) on delete cascade,
  revision integer not null
);
