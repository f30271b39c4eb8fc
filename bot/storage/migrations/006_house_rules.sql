-- 006: a server's house rules (issue 21), per game: the options and table settings that its new
-- tables start with (`/settings`), as JSON objects holding only the values the admin set; the
-- options of `/euchre new` and `/truco new` override them, and the lobby can still change them.
-- (Numbered 006 in its branch; other branches add migrations too: renumber on merge if taken.)

CREATE TABLE IF NOT EXISTS house_rules (
    guild_id    INTEGER NOT NULL,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,
    settings    TEXT NOT NULL,
    set_by      INTEGER NOT NULL,
    set_at      REAL NOT NULL,
    PRIMARY KEY (guild_id, game)
) STRICT;
