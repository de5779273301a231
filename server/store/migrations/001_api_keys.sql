CREATE TABLE api_keys (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  prefix      TEXT NOT NULL,          -- first characters of the key, shown in listings
  hash        TEXT NOT NULL UNIQUE,   -- sha256 hex of the whole key; the key itself is never stored
  created_at  TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at  TEXT
);
