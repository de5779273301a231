-- A workflow that create_workflow_session made from a workflow_name nobody had saved is a by-product
-- of launching a session, not something a person set out to write: it stays out of GET /workflows
-- (the dashboard's Workflows list) until someone saves it or sets its metadata, which adopts it.
-- It is still found by id, by name (a later session of that name reuses it) and by search_workflows.
-- Rows from before this migration cannot be told apart, so they stay listed (0).
ALTER TABLE workflows ADD COLUMN made_by_session INTEGER NOT NULL DEFAULT 0;
