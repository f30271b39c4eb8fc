-- 003: turn timers, turn pings, players a bot covers for, and the ready check of "Play again".
--
-- `turn_deadline` (Unix seconds) is when a bot plays for the human whose turn it is; it is
-- stored with each action so a restart keeps it. `turn_warned` says the half-time warning went
-- out. `ping_message_id` is the one turn ping a table keeps in its channel (deleted when the
-- turn moves on, also after a restart). `ready` is a JSON list of the user ids who clicked
-- "Play again" on a finished table.
-- Per seat: `missed` counts turns in a row a bot played for the human (3 or more: `away`, the
-- bot keeps the seat until they are back); `left_user_id` is who left a seat now played by a bot.

ALTER TABLE tables ADD COLUMN turn_deadline REAL;
ALTER TABLE tables ADD COLUMN turn_warned INTEGER NOT NULL DEFAULT 0 CHECK (turn_warned IN (0, 1));
ALTER TABLE tables ADD COLUMN ping_message_id INTEGER;
ALTER TABLE tables ADD COLUMN ready TEXT NOT NULL DEFAULT '[]';
ALTER TABLE table_seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0);
ALTER TABLE table_seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1));
ALTER TABLE table_seats ADD COLUMN left_user_id INTEGER;
