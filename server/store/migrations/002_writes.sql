CREATE TABLE writes (
  id            TEXT PRIMARY KEY,
  prompt        TEXT NOT NULL,
  text          TEXT NOT NULL,
  word_count    INTEGER NOT NULL,
  error         TEXT,
  input_tokens  INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  finish_reason TEXT NOT NULL,
  model         TEXT NOT NULL,
  duration_ms   INTEGER NOT NULL,
  created_at    TEXT NOT NULL
);
CREATE INDEX writes_created ON writes (created_at DESC, id DESC);
