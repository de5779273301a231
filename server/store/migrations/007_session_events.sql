CREATE TABLE session_events (
  session_id  TEXT NOT NULL,
  idx         INTEGER NOT NULL,        -- position in the session's log, from 0
  event       TEXT NOT NULL,           -- SessionStarted, RunStarted, ToolCallStarted, …
  body        TEXT NOT NULL,           -- the whole event as JSON (contract/sessionEvents.ts)
  created_at  TEXT NOT NULL,
  PRIMARY KEY (session_id, idx)
);
