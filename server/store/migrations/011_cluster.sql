-- Nodes sharing this store (every node given the same DATABASE_URL), and which node holds each
-- session, run and browser process. A single node is 'local'; a cluster node is its NODE_URL.
CREATE TABLE nodes (
  id            TEXT PRIMARY KEY,       -- NODE_URL: where other nodes reach it
  max_sessions  INTEGER NOT NULL,
  sessions      INTEGER NOT NULL,       -- starting or live at its last heartbeat
  started_at    TEXT NOT NULL,          -- when this run of the node began
  heartbeat_at  BIGINT NOT NULL         -- epoch milliseconds; 0 once it stopped in order
);
ALTER TABLE sessions ADD COLUMN node_id TEXT NOT NULL DEFAULT 'local';
ALTER TABLE runs ADD COLUMN node_id TEXT NOT NULL DEFAULT 'local';
ALTER TABLE browser_processes ADD COLUMN node_id TEXT NOT NULL DEFAULT 'local';
CREATE INDEX sessions_node ON sessions (node_id, state);
