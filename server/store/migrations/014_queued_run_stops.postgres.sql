-- How many nodes stopped (died or restarted) while they held a queued run and were starting it.
-- A run that keeps going with the nodes that take it is not handed to the next one (sharedRunQueue.ts).
ALTER TABLE queued_runs ADD COLUMN stopped_takers INTEGER NOT NULL DEFAULT 0;
