-- The parts of 0003_passages (0003_passages.ts makes the passages table and its full-text index first) that
-- are the same on both engines.

create index passages_bot on passages (bot_id);

-- One row ('current'): the embedding model of the stored vectors and how they are stored.
create table embedding_model (
  key text primary key,
  model_id text not null,
  dimensions integer not null,
  vector_store text not null,
  updated_at text not null
);
