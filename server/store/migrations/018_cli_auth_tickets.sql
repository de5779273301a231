-- Browser logins of command-line clients (contract/cliAuth.ts): one row per ticket, in the store so
-- that every node of a cluster sees the same tickets. Same on SQLite and Postgres.
-- Neither secret is kept as it is: the poll token as its sha256, the approved API key sealed under a
-- key derived from the server's secret key, and only until the client collects it.
CREATE TABLE cli_auth_tickets (
  id               TEXT PRIMARY KEY,     -- random UUID, in the approval page's URL
  poll_token_hash  TEXT NOT NULL,        -- sha256 hex of the poll token
  status           TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'collected', 'expired')),
  client           TEXT NOT NULL,        -- the requester's User-Agent, for the approval page
  address          TEXT NOT NULL,        -- the address it came from; requests per address are counted here
  created_at       TEXT NOT NULL,
  expires_at       TEXT NOT NULL,
  api_key_id       TEXT,                 -- the key made on approval
  sealed_api_key   TEXT                  -- base64 of the sealed key, from approval until collected
);
CREATE INDEX cli_auth_tickets_address ON cli_auth_tickets (address, expires_at);
CREATE INDEX cli_auth_tickets_expiry ON cli_auth_tickets (expires_at);
