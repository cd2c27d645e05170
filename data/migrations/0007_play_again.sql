-- The table a finished table's Play again opened: a second press, even after a
-- restart, shows that table instead of opening another.

ALTER TABLE tables ADD COLUMN played_again_id INTEGER REFERENCES tables (id);
