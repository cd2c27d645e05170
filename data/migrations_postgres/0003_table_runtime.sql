-- PostgreSQL's version of data/migrations/0003_table_runtime.sql.
-- What a restarted bot needs to carry on a table beyond its hands: which players are on
-- auto-play (托管), and whether a finished table's session summary has been posted.

ALTER TABLE seats ADD COLUMN autoplay INTEGER NOT NULL DEFAULT 0 CHECK (autoplay IN (0, 1));

ALTER TABLE tables ADD COLUMN summary_posted_at BIGINT;

-- The bot of the time posted the summary of every table finished before this version.
UPDATE tables SET summary_posted_at = finished_at WHERE status = 'finished';

-- The tables a restart still owes a summary, found without scanning every table.
CREATE INDEX tables_summary_due ON tables (id)
    WHERE status = 'finished' AND summary_posted_at IS NULL;
