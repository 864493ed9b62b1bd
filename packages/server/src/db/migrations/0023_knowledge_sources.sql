-- Website sources of knowledge bases (issue #36): the source with its crawl state, progress and last runs;
-- and each page it crawled into a file, with what a conditional GET and the unchanged check need.

create table knowledge_sources (
  id text primary key,
  bot_id text not null references bots(id) on delete cascade,
  workspace_id text not null,
  knowledge_base_id text not null references knowledge_bases(id) on delete cascade,
  type text not null,
  url text not null,
  settings text not null,
  schedule text not null,
  state text not null,
  stop_requested integer not null default 0,
  progress text not null,
  runs text not null default '[]',
  next_sync_at text,
  created_at text not null,
  updated_at text not null
);
create index knowledge_sources_kb on knowledge_sources (knowledge_base_id);
create index knowledge_sources_due on knowledge_sources (next_sync_at);

create table knowledge_source_pages (
  source_id text not null references knowledge_sources(id) on delete cascade,
  url text not null,
  file_id text not null,
  etag text,
  last_modified text,
  content_hash text not null,
  gone_count integer not null default 0,
  fetched_at text not null,
  constraint knowledge_source_pages_pk primary key (source_id, url)
);
