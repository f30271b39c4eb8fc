-- 002: table settings that are not game rules (turn timer, pings, pictures ...) and bot levels.
--
-- `settings` is JSON text like `options`, but the engine never sees it: it may change while a
-- game runs without touching the replay. `level` is a bot seat's strength ("easy", "normal",
-- "hard"); NULL for a human seat and for bots stored before levels existed (read as "normal").

ALTER TABLE tables ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE table_seats ADD COLUMN level TEXT;
