CREATE TABLE workflows (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  flow        TEXT NOT NULL,          -- Chrome DevTools Recorder user flow, JSON
  variables   TEXT NOT NULL,          -- JSON list of {name, type, required, default?}
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
