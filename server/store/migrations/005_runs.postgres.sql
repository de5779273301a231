-- Postgres' spelling of 005: the same table, with the types SQLite names differently.
CREATE TABLE runs (
  id            TEXT PRIMARY KEY,        -- the run's own id: names its upload folder DATA_DIR/runs/<id>/
  session_id    TEXT NOT NULL UNIQUE,    -- the session it ran in (run_workflow_status looks runs up by it)
  workflow_id   TEXT NOT NULL,
  status        TEXT NOT NULL,           -- running | succeeded | failed
  message       TEXT NOT NULL,
  results       TEXT NOT NULL,           -- JSON list of per-step results
  total_actions INTEGER NOT NULL,
  outputs       TEXT NOT NULL,           -- JSON object from the extract steps
  screenshot    BYTEA,                   -- final page, JPEG
  metadata      TEXT,                    -- the caller's metadata string, passed back unchanged
  webhook_url   TEXT,
  created_at    TEXT NOT NULL,
  completed_at  TEXT
);
CREATE INDEX runs_status ON runs (status);
