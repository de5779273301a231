-- Workflow metadata and structured_output, for Simplex's clients (search_workflows,
-- update_workflow_metadata, the Python client's /workflow calls).
ALTER TABLE workflows ADD COLUMN metadata TEXT;          -- free text, NULL when none; searched exactly
ALTER TABLE workflows ADD COLUMN structured_output TEXT; -- any JSON, NULL when none; kept, not used by runs
