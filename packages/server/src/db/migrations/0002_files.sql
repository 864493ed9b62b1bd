create table files (
  id text primary key,
  bot_id text not null references bots(id) on delete cascade,
  workspace_id text not null,
  key text not null,
  content_type text not null,
  size bigint,
  declared_size bigint not null,
  sha256 text,
  metadata text not null default '{}',
  access_policies text not null default '[]',
  "index" integer not null default 0,
  indexing_configuration text,
  status text not null,
  failed_status_reason text,
  expires_at text,
  owner_type text not null,
  owner_id text,
  blob_key text,
  upload_version integer not null default 1,
  created_at text not null,
  updated_at text not null,
  constraint files_bot_key unique (bot_id, key)
);
create index files_bot_created on files (bot_id, created_at, id);
create index files_workspace on files (workspace_id);
create index files_expires on files (expires_at);

create table file_tags (
  file_id text not null references files(id) on delete cascade,
  key text not null,
  value text not null,
  constraint file_tags_pk primary key (file_id, key)
);

-- Blobs to delete once their record is gone: durable, so a crash between the two never leaks bytes.
create table blob_garbage (
  blob_key text primary key,
  queued_at text not null
);
create index file_tags_key_value on file_tags (key, value);
