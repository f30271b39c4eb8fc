-- 006: when the turn reached the human(s) to act now (Unix seconds, NULL: nobody to wait for),
-- stored with each action like `turn_deadline`: the turn ping goes out only once they have been
-- idle for the table's `ping_after` seconds, and a restart keeps when that is.
-- (Numbered 006 in its branch; other branches add migrations too: renumber on merge if taken.)

ALTER TABLE tables ADD COLUMN turn_since REAL;
