-- 003 (PostgreSQL twin of ../003_turn_timers_pings_ready.sql).

ALTER TABLE tables ADD COLUMN turn_deadline DOUBLE PRECISION;
ALTER TABLE tables ADD COLUMN turn_warned INTEGER NOT NULL DEFAULT 0 CHECK (turn_warned IN (0, 1));
ALTER TABLE tables ADD COLUMN ping_message_id BIGINT;
ALTER TABLE tables ADD COLUMN ready TEXT NOT NULL DEFAULT '[]';
ALTER TABLE table_seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0 CHECK (missed >= 0);
ALTER TABLE table_seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1));
ALTER TABLE table_seats ADD COLUMN left_user_id BIGINT;
