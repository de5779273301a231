-- The profile a saved workflow's runs start from (contract/profileUse.ts as JSON: {"name", "persist"});
-- NULL: none. run_workflow's own profile field, when given, wins. Same on SQLite and Postgres.
ALTER TABLE workflows ADD COLUMN profile TEXT;
