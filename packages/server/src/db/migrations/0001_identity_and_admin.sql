create table accounts (
  id text primary key,
  email text not null unique,
  display_name text not null,
  created_at text not null,
  updated_at text not null
);

create table workspaces (
  id text primary key,
  name text not null,
  owner_id text not null references accounts(id),
  about text not null default '',
  contact_email text not null default '',
  website text not null default '',
  created_at text not null,
  updated_at text not null
);

create table members (
  id text primary key,
  workspace_id text not null references workspaces(id) on delete cascade,
  account_id text references accounts(id) on delete cascade,
  email text not null,
  role text not null,
  created_at text not null,
  updated_at text not null,
  constraint members_workspace_email unique (workspace_id, email)
);
create index members_account on members (account_id);

create table invitations (
  id text primary key,
  member_id text not null references members(id) on delete cascade,
  code_hash text not null unique,
  expires_at text not null,
  used_at text,
  created_at text not null
);

create table bots (
  id text primary key,
  workspace_id text not null references workspaces(id) on delete cascade,
  name text not null,
  description text not null default '',
  dev integer not null default 0,
  status text not null,
  created_by text not null,
  reply_mode text not null,
  webhook_url text,
  webchat_config text not null default '{}',
  created_at text not null,
  updated_at text not null,
  deployed_at text not null
);
create index bots_workspace_created on bots (workspace_id, created_at, id);

create table bot_tags (
  bot_id text not null references bots(id) on delete cascade,
  key text not null,
  value text not null,
  constraint bot_tags_pk primary key (bot_id, key)
);
create index bot_tags_key_value on bot_tags (key, value);

create table integrations (
  id text primary key,
  workspace_id text not null references workspaces(id) on delete cascade,
  name text not null,
  description text not null default '',
  created_by text not null,
  created_at text not null,
  updated_at text not null,
  constraint integrations_workspace_name unique (workspace_id, name)
);

create table installations (
  bot_id text not null references bots(id) on delete cascade,
  integration_id text not null references integrations(id) on delete cascade,
  installed_at text not null,
  constraint installations_pk primary key (bot_id, integration_id)
);

create table tokens (
  id text primary key,
  kind text not null,
  hash text not null unique,
  account_id text references accounts(id) on delete cascade,
  bot_id text references bots(id) on delete cascade,
  integration_id text references integrations(id) on delete cascade,
  note text not null default '',
  created_at text not null,
  last_used_at text,
  expires_at text,
  revoked_at text
);
create index tokens_account on tokens (account_id);
create index tokens_bot on tokens (bot_id);

create table audit_records (
  id text primary key,
  workspace_id text not null references workspaces(id) on delete cascade,
  recorded_at text not null,
  account_id text,
  account_email text,
  action text not null,
  resource_id text,
  resource_name text,
  value text
);
create index audit_workspace_id on audit_records (workspace_id, id);

create table request_logs (
  id text primary key,
  bot_id text not null,
  timestamp text not null,
  level text not null,
  message text not null,
  request_id text not null,
  operation_id text,
  method text not null,
  path text not null,
  status_code integer not null,
  duration_ms double precision not null
);
create index request_logs_bot_id on request_logs (bot_id, id);
create index request_logs_timestamp on request_logs (timestamp);

create table meta (
  key text primary key,
  value text not null
);
