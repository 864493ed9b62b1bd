-- The passages without vectors (indexed with PARLEY_EMBEDDER=none), by file: the embedding model's keeper
-- asks every minute whether indexed files have any, which without this index reads every passage row.

create index if not exists passages_unembedded on passages(file_id) where model_id is null;
