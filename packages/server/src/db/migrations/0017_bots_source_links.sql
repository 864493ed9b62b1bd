-- Which sources of a bot's answers are linked (security issue #31): every existing bot gets `public`, the
-- default (public_content files and a metadata sourceUrl only), no longer every private file.

alter table bots add column source_links text not null default 'public';
