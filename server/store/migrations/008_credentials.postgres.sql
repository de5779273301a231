-- Postgres' spelling of 008: the same table, with the types SQLite names differently.
-- Credentials for flows ({{credentials.NAME}} in change values) and Simplex's store_credential.
-- secret is iv | tag | ciphertext, AES-256-GCM under a key derived from the server's secret key,
-- with the name as associated data: the value is never stored in the clear.
CREATE TABLE credentials (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,   -- case-sensitive, as the placeholder is
  secret      BYTEA NOT NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
