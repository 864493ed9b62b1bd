-- What a file's committed bytes were uploaded as (media type, access policies), kept apart from the latest
-- upsert's fields: a re-upsert keeps serving the old bytes, as they were published, until new ones commit.

alter table files add column blob_content_type text;
alter table files add column blob_access_policies text;

update files set blob_content_type = content_type, blob_access_policies = access_policies
  where blob_key is not null and size is not null;
