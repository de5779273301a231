CREATE TABLE sessions (
  id              TEXT PRIMARY KEY,
  workflow_id     TEXT NOT NULL,        -- no foreign key: deleting a workflow keeps its session history
  state           TEXT NOT NULL CHECK (state IN ('starting', 'live', 'ended')),
  end_reason      TEXT CHECK (end_reason IN ('stopped', 'timed_out', 'completed', 'crashed', 'failed_to_start')),
  proxies         INTEGER NOT NULL DEFAULT 0,
  timeout_seconds INTEGER NOT NULL,
  webhook_url     TEXT,
  metadata        TEXT,
  view_hash       TEXT,                 -- sha256 hex of each capability token; cleared when the session ends
  control_hash    TEXT,
  cdp_hash        TEXT,
  created_at      TEXT NOT NULL,
  expires_at      TEXT NOT NULL,
  ended_at        TEXT
);
CREATE INDEX sessions_created ON sessions (created_at DESC, id DESC);
CREATE INDEX sessions_state ON sessions (state);

-- Group leaders (Xvfb, Chromium, x11vnc) of every running browser tree, warm-pool ones included,
-- so a restarted server can reap what a crashed one left behind.
CREATE TABLE browser_processes (
  tree_id  TEXT NOT NULL,
  kind     TEXT NOT NULL CHECK (kind IN ('xvfb', 'chromium', 'x11vnc')),
  pid      INTEGER NOT NULL,
  PRIMARY KEY (tree_id, kind)
);
