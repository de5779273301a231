-- What each session is (contract/sessions.ts SessionIsolation): 'browser', a browser of its own, or
-- 'context', a browser context in a browser that sessions of one API key share. Sessions recorded
-- before there was a choice were all browsers. Same on SQLite and Postgres.
ALTER TABLE sessions ADD COLUMN isolation TEXT NOT NULL DEFAULT 'browser';
