-- 005: the weekly recap (issue 22), per server: the channel it is posted to (NULL: off) and the
-- week of the last recap posted (`last_week`: the Monday 00:00 UTC, in Unix seconds, that the
-- recapped week began). A process posts a week's recap only after moving `last_week` forward
-- with one conditional UPDATE, so that a restart (or a second shard) neither doubles nor skips it.
-- (Numbered 005 in its branch; other branches add migrations too: renumber on merge if taken.)

CREATE TABLE IF NOT EXISTS recaps (
    guild_id    INTEGER PRIMARY KEY,
    channel_id  INTEGER,
    last_week   INTEGER NOT NULL DEFAULT 0,
    set_by      INTEGER,
    set_at      REAL NOT NULL
) STRICT;
