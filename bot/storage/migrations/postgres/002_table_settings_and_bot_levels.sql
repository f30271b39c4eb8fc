-- 002 (PostgreSQL twin of ../002_table_settings_and_bot_levels.sql).

ALTER TABLE tables ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE table_seats ADD COLUMN level TEXT;
