-- 001: tables in play, finished games and what the leaderboard, /stats and /history read.
--
-- Conventions: times are Unix seconds (REAL, UTC); Discord ids are INTEGER (they fit in 63 bits);
-- seeds are TEXT holding a decimal integer, because the engine's seeds are unsigned 64-bit values
-- that do not fit SQLite's signed INTEGER; options, actions and stats are JSON text.
-- STRICT tables make SQLite reject a value of the wrong type instead of storing it silently.

-- Tables in play ---------------------------------------------------------------------------------

-- AUTOINCREMENT so an id is never reused after a delete: buttons carry the table id, and an old
-- button must never reach a new table that happens to get the same id.
CREATE TABLE tables (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    message_id   INTEGER,
    host_id      INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    options      TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
    seed         TEXT,
    first_dealer INTEGER,
    version      INTEGER NOT NULL CHECK (version >= 0),
    created_at   REAL    NOT NULL,
    started_at   REAL
) STRICT;

CREATE INDEX tables_by_channel ON tables (guild_id, channel_id);

-- One row per occupied lobby position; an empty position has no row.
CREATE TABLE table_seats (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    position INTEGER NOT NULL CHECK (position BETWEEN 0 AND 3),
    user_id  INTEGER,
    is_bot   INTEGER NOT NULL CHECK (is_bot IN (0, 1)),
    name     TEXT    NOT NULL,
    PRIMARY KEY (table_id, position),
    CHECK (is_bot = 1 OR user_id IS NOT NULL)
) STRICT, WITHOUT ROWID;

-- The current game's action log, seq 0, 1, 2 ... in the order the actions were applied.
CREATE TABLE table_actions (
    table_id INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    seat     INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    action   TEXT    NOT NULL,
    PRIMARY KEY (table_id, seq)
) STRICT, WITHOUT ROWID;

-- Finished games ---------------------------------------------------------------------------------

-- table_id is not a foreign key: a table is deleted when it closes, its games stay.
-- UNIQUE (table_id, started_at) makes recording idempotent: one game of one table is one row.
-- `actions` is the last column on purpose: it is the only big value, and SQLite reads the
-- columns before it without touching the overflow pages that hold it (history stays cheap).
CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    table_id     INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    started_at   REAL    NOT NULL,
    ended_at     REAL    NOT NULL,
    hands_played INTEGER NOT NULL CHECK (hands_played >= 0),
    score0       INTEGER NOT NULL,
    score1       INTEGER NOT NULL,
    winner_team  INTEGER NOT NULL CHECK (winner_team IN (0, 1)),
    margin       INTEGER,
    seed         TEXT    NOT NULL,
    first_dealer INTEGER,
    options      TEXT    NOT NULL,
    actions      TEXT    NOT NULL,
    UNIQUE (table_id, started_at)
) STRICT;

-- /history: a server's latest games, all kinds or one kind.
CREATE INDEX games_by_guild_time ON games (guild_id, ended_at DESC, id DESC);
CREATE INDEX games_by_guild_game_time ON games (guild_id, game, ended_at DESC, id DESC);

-- One row per seat of a finished game. Ratings are NULL for bots (never rated).
CREATE TABLE game_players (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER,
    is_bot       INTEGER NOT NULL CHECK (is_bot IN (0, 1)),
    name         TEXT    NOT NULL,
    team         INTEGER NOT NULL CHECK (team IN (0, 1)),
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    stats        TEXT    NOT NULL,
    mu_before    REAL,
    sigma_before REAL,
    mu_after     REAL,
    sigma_after  REAL,
    PRIMARY KEY (game_id, seat),
    CHECK (is_bot = 1 OR user_id IS NOT NULL)
) STRICT, WITHOUT ROWID;

-- Aggregates kept up to date in the transaction that records a game -------------------------------

-- Counters per player and game kind (marches, truco asks ...), summed over every game. Keyed
-- player first: /stats reads one player's rows.
CREATE TABLE player_stats (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    stat     TEXT    NOT NULL,
    value    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, game, stat)
) STRICT, WITHOUT ROWID;

-- The current OpenSkill rating of each human, per server and game kind. `ordinal` = mu - 3 sigma
-- is stored (not computed) so the leaderboard walks an index in rank order and stops after one
-- page; `games` is in that index so the minimum-games filter needs no table lookup. Keyed player
-- first so /stats finds one player's kinds directly (every other lookup names all three).
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    ordinal     REAL    NOT NULL,
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    last_played REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, game)
) STRICT, WITHOUT ROWID;

CREATE INDEX ratings_rank ON ratings (guild_id, game, ordinal DESC, user_id, games);

-- Games and wins per calendar period (UTC week from Monday, UTC month), for the leaderboard's
-- week and month views: one small row per active player and period instead of an aggregate over
-- millions of game rows at query time. `ordinal` is the player's rating after their latest game
-- of the period; a rating moves only when its player finishes a game, and that game rewrites the
-- current period's row, so for the current period it is always the current rating. With it here
-- the period views walk an index in rank order too, with no join and no sort.
CREATE TABLE player_periods (
    guild_id     INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    period       TEXT    NOT NULL CHECK (period IN ('week', 'month')),
    period_start INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    games        INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    ordinal      REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, period, period_start, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX player_periods_rank
    ON player_periods (guild_id, game, period, period_start, ordinal DESC, user_id, games);
