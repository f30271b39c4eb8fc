-- 012 (PostgreSQL twin of ../012_alone_intents.sql): euchre's going-alone intents, kept with the
-- table. See the SQLite file for what the column holds.

ALTER TABLE tables ADD COLUMN alone_intents TEXT NOT NULL DEFAULT '[]';
