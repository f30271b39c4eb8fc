-- 005 (PostgreSQL twin of ../005_weekly_recap.sql): the weekly recap (issue 22), per server: the
-- channel it is posted to (NULL: off) and the week of the last recap posted (`last_week`: the
-- Monday 00:00 UTC, in Unix seconds, that the recapped week began). A process posts a week's
-- recap only after moving `last_week` forward with one conditional UPDATE, so that a restart (or
-- a second shard) neither doubles nor skips it.

CREATE TABLE IF NOT EXISTS recaps (
    guild_id    BIGINT PRIMARY KEY,
    channel_id  BIGINT,
    last_week   BIGINT NOT NULL DEFAULT 0,
    set_by      BIGINT,
    set_at      DOUBLE PRECISION NOT NULL
);
