-- 008: a server's competition settings, chosen by its admins (issue 23).
--
-- One row per server and setting; a missing row is the setting's default. Today:
-- `count_matches` = 'match' (a best-of match counts once on the board, the default) or 'game'
-- (each game of the match counts). Read in the transaction that records a game.

CREATE TABLE server_settings (
    guild_id INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, name)
) STRICT, WITHOUT ROWID;
