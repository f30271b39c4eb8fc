-- 006 (PostgreSQL twin of ../006_turn_since.sql).

ALTER TABLE tables ADD COLUMN turn_since DOUBLE PRECISION;
