CREATE TABLE credentials (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  secret      BLOB NOT NULL,           -- AES-256-GCM: iv | tag | ciphertext, the name as additional data
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
