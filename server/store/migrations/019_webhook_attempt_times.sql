-- When a delivery was last tried (Settings' Deliveries, GET /webhooks/deliveries): NULL until its
-- first attempt. The index serves that list, newest first. Same on SQLite and Postgres.
ALTER TABLE webhook_outbox ADD COLUMN last_attempt_at TEXT;
CREATE INDEX webhook_outbox_recent ON webhook_outbox (created_at, id);
