-- PostgreSQL's version of data/migrations/0007_play_again.sql.
-- The table a finished table's Play again opened: a second press, even after a
-- restart, shows that table instead of opening another.

ALTER TABLE tables ADD COLUMN played_again_id BIGINT REFERENCES tables (id);
