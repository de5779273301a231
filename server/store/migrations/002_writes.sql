-- One row per successful write (truncated ones included); failed model calls leave nothing.
-- seq orders the listing: created_at alone ties within a millisecond, a random id says nothing of age.
CREATE TABLE writes (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,
  id            TEXT NOT NULL UNIQUE,
  prompt        TEXT NOT NULL,
  text          TEXT NOT NULL,
  word_count    INTEGER NOT NULL,
  error         TEXT,                   -- NULL, or 'generation limit reached'
  input_tokens  INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  finish_reason TEXT NOT NULL,          -- the AI SDK's unified reason: stop, length, ...
  model         TEXT NOT NULL,
  duration_ms   INTEGER NOT NULL,
  created_at    TEXT NOT NULL
);
