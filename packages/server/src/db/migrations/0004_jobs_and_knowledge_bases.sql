create table jobs (
  id text primary key,
  kind text not null,
  payload text not null,
  status text not null,
  attempts integer not null default 0,
  run_after text not null,
  locked_by text,
  locked_until text,
  last_error text,
  created_at text not null,
  updated_at text not null
);
create index jobs_claim on jobs (status, kind, run_after);
alter table files add column indexing_done integer not null default 0;
alter table files add column indexing_total integer not null default 0;

create table knowledge_bases (
  id text primary key,
  bot_id text not null references bots(id) on delete cascade,
  name text not null,
  tags text not null default '{}',
  created_at text not null,
  updated_at text not null,
  constraint knowledge_bases_bot_name unique (bot_id, name)
);

create table knowledge_base_files (
  knowledge_base_id text not null references knowledge_bases(id) on delete cascade,
  file_id text not null references files(id) on delete cascade,
  linked_at text not null,
  constraint knowledge_base_files_pk primary key (knowledge_base_id, file_id)
);
create index knowledge_base_files_file on knowledge_base_files (file_id);
