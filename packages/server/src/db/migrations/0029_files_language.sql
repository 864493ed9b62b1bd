-- The files whose language indexing recorded (issues #36, #38): a server start asks whether any file is German,
-- to load the German noun list before a question needs it; without this index that question read every row of
-- `files` on a database holding none.

create index files_language on files(language) where language is not null;
