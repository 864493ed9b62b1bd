-- Resumable uploads (modules/files/resumable.ts): one session per upload version of a file, the bytes it has
-- received so far as parts (each a blob of its own under `uploads/`), joined into the file's blob at the end.

create table if not exists file_uploads (
  id text primary key,
  file_id text not null,
  upload_version integer not null,
  size bigint not null,
  "offset" bigint not null,
  status text not null,
  created_at text not null,
  updated_at text not null,
  expires_at text not null,
  constraint file_uploads_file_version unique (file_id, upload_version)
);
create index if not exists file_uploads_expires on file_uploads (expires_at);

create table if not exists file_upload_parts (
  upload_id text not null,
  "offset" bigint not null,
  size bigint not null,
  blob_key text not null,
  constraint file_upload_parts_pk primary key (upload_id, "offset")
);
