-- The Standard Webhooks signing secret: one row, created once, whsec_ prefixed. Kept in clear
-- because signing needs it (an HMAC key cannot be stored hashed).
CREATE TABLE webhook_secret (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  secret      TEXT NOT NULL,
  created_at  TEXT NOT NULL
);

-- Durable outbox: one row per event per destination; the id is the webhook-id header on every attempt.
CREATE TABLE webhook_outbox (
  id              TEXT PRIMARY KEY,
  url             TEXT NOT NULL,
  type            TEXT NOT NULL,
  payload         TEXT NOT NULL,          -- the exact JSON body that is signed and sent
  status          TEXT NOT NULL,          -- pending | delivered | failed | disabled | refused
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,        -- epoch milliseconds (BIGINT: a Postgres INTEGER is 32 bits; the same INTEGER affinity in SQLite)
  last_status     INTEGER,                -- HTTP status of the last attempt
  last_error      TEXT,
  created_at      TEXT NOT NULL,
  delivered_at    TEXT
);
CREATE INDEX webhook_outbox_due ON webhook_outbox (status, next_attempt_at);

-- Destinations that answered 410 Gone: nothing more is sent there.
CREATE TABLE webhook_disabled (
  url         TEXT PRIMARY KEY,
  disabled_at TEXT NOT NULL
);
