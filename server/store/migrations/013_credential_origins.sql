-- The origins a credential may be typed into (store_credential's allowed_origins): a JSON array of
-- origins as the browser spells them ("https://login.example.com"); '[]' lets the runner type it
-- into any page, as every credential stored before this column could be. Same on SQLite and Postgres.
ALTER TABLE credentials ADD COLUMN allowed_origins TEXT NOT NULL DEFAULT '[]';
