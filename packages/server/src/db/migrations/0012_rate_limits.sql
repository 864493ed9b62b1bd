-- Rate limits shared by every process (http/rate-limit-store.ts): one counter per key and window, the end of
-- the window in epoch ms on the database's clock; the index lets the sweep delete ended windows cheaply.
-- Only PostgreSQL counts here (SQLite is one process, counted in memory); the table is made on both.

create table if not exists rate_limits (
  key text primary key,
  count integer not null,
  resets_at bigint not null
);
create index if not exists rate_limits_resets_at on rate_limits (resets_at);
