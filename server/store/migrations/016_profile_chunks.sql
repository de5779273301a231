-- The sealed chunks of profile versions (015): one row per 1 MiB chunk, so a version is never one huge
-- row in the store or in memory. A version's blob_id names its chunks; a chunk names its profile so
-- that deleting a profile, and dropping chunks no version names, need no join.
CREATE TABLE profile_chunks (
  blob_id  TEXT NOT NULL,
  profile  TEXT NOT NULL,
  seq      INTEGER NOT NULL,
  data     BLOB NOT NULL,
  PRIMARY KEY (blob_id, seq)
);
CREATE INDEX profile_chunks_profile ON profile_chunks (profile);
