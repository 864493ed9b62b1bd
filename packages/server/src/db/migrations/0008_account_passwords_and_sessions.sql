-- Human sign-in: an account's password (apart from the account row, so no listing ever reads it), the
-- sessions a sign-in opens (only the SHA-256 of the cookie's value is stored), and failed sign-ins by key
-- (an e-mail or a client address) for throttling across every process of a deployment.

create table account_passwords (
  account_id text primary key references accounts(id) on delete cascade,
  hash text not null,
  updated_at text not null
);

create table sessions (
  id text primary key,
  hash text not null unique,
  account_id text not null references accounts(id) on delete cascade,
  user_agent text not null,
  address text not null,
  created_at text not null,
  last_seen_at text not null,
  expires_at text not null,
  revoked_at text
);
create index sessions_account on sessions (account_id, id);

create table sign_in_failures (
  key text not null,
  failed_at text not null
);
create index sign_in_failures_key on sign_in_failures (key, failed_at);
create index sign_in_failures_at on sign_in_failures (failed_at);
