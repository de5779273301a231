-- Profiles: named browser states that sessions start from and may save back to (contract/profiles.ts);
-- their bytes are in profile_chunks (016). Same on SQLite and Postgres.
-- A version's bytes are a blob of sealed chunks (server/profiles/sealedChunks.ts): AES-256-GCM under
-- a key derived from the server's secret key, so no cookie or token is ever stored in the clear.
-- A version row is written only after all its chunks: a save cut short leaves chunks no version
-- names, which the next save of that profile removes.
CREATE TABLE profiles (
  name          TEXT PRIMARY KEY,      -- 1-64 of [A-Za-z0-9._-], case-sensitive
  created_at    TEXT NOT NULL,
  last_used_at  TEXT
);
CREATE TABLE profile_versions (
  profile        TEXT NOT NULL,
  version        INTEGER NOT NULL,
  blob_id        TEXT NOT NULL,        -- its chunks; a restored version names the blob it copies
  kind           TEXT NOT NULL CHECK (kind IN ('browser', 'storage_state')),
  size           INTEGER NOT NULL,     -- bytes stored, over all chunks
  source         TEXT NOT NULL CHECK (source IN ('import', 'session', 'restore')),
  session_id     TEXT,
  restored_from  INTEGER,
  created_at     TEXT NOT NULL,
  PRIMARY KEY (profile, version)
);
-- Sessions started from a profile, while they live. At most one per profile persists: the unique
-- index is the lock, held in the store so that it holds across the nodes of a cluster. A row whose
-- session is no longer starting or live (its node died) is stale and is cleared before each take.
CREATE TABLE profile_uses (
  profile     TEXT NOT NULL,
  session_id  TEXT NOT NULL,
  persist     INTEGER NOT NULL,
  since       TEXT NOT NULL,
  PRIMARY KEY (profile, session_id)
);
CREATE UNIQUE INDEX profile_uses_one_persisting ON profile_uses (profile) WHERE persist = 1;
