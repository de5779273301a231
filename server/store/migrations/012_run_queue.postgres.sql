-- The shared run queue, on Postgres only (a SQLite store is one node, whose queued runs wait in
-- memory; migrate() passes this version by there). What a queued run needs to start on whichever
-- node frees a browser first: pg-boss carries the wake-ups, this is the run's own material.
CREATE TABLE queued_runs (
  run_id        TEXT PRIMARY KEY,        -- runs.id
  session_id    TEXT NOT NULL UNIQUE,    -- answered to the caller at once; the session gets it when it starts
  prepared      TEXT NOT NULL,           -- JSON: the validated run (flow with variables filled, credential names, metadata, webhook)
  view_hash     TEXT NOT NULL,           -- the session's token hashes, handed out with the answer
  control_hash  TEXT NOT NULL,
  cdp_hash      TEXT NOT NULL,
  claimed_by    TEXT,                    -- the node starting its browser; NULL while it waits
  seq           BIGSERIAL,               -- the order they came in, by the database's count (not a node's clock)
  put_back      INTEGER NOT NULL DEFAULT 0, -- 1: a node took it and could not start it; it goes first (pg-boss priority)
  created_at    TEXT NOT NULL
);
CREATE INDEX queued_runs_order ON queued_runs (put_back, seq);
CREATE TABLE queued_run_files (
  run_id  TEXT NOT NULL,
  name    TEXT NOT NULL,
  data    BYTEA NOT NULL,
  PRIMARY KEY (run_id, name)
);
