-- 009: seasons (issue 23). A server admin starts a season per game; its games are rated again
-- from a fresh prior in season_ratings while the all-time rating (ratings) goes on.
--
-- A game belongs to the season of its server and kind whose window holds its end time:
-- started_at <= ended_at < ends_at (ends_at NULL: until an admin ends it, which sets ends_at).
-- Closing is one claim, `UPDATE ... SET status = 'closed' WHERE status = 'open'`, in the
-- transaction that writes the final ranks: a restart at the moment a season ends closes it once.
-- announced_at is set after the final standings are posted; a closed season with none is
-- posted at start-up (catch-up).

CREATE TABLE seasons (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    number       INTEGER NOT NULL CHECK (number >= 1),
    channel_id   INTEGER NOT NULL,
    length       TEXT    NOT NULL CHECK (length IN ('month', 'quarter', 'open')),
    min_games    INTEGER NOT NULL CHECK (min_games >= 1),
    min_rating   INTEGER NOT NULL,
    started_at   REAL    NOT NULL,
    ends_at      REAL,
    status       TEXT    NOT NULL CHECK (status IN ('open', 'closed')),
    closed_at    REAL,
    announced_at REAL,
    UNIQUE (guild_id, game, number)
) STRICT;

-- One open season per server and game, enforced by the database.
CREATE UNIQUE INDEX seasons_one_open ON seasons (guild_id, game) WHERE status = 'open';
CREATE INDEX seasons_due ON seasons (status, ends_at);

-- Each player's season rating and record. final_rank (among the players who met the season's
-- minimums) and champion are written when the season closes.
CREATE TABLE season_ratings (
    season_id  INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    ordinal    REAL    NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    final_rank INTEGER,
    champion   INTEGER NOT NULL DEFAULT 0 CHECK (champion IN (0, 1)),
    PRIMARY KEY (season_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX season_ratings_rank ON season_ratings (season_id, ordinal DESC, user_id);
CREATE INDEX season_ratings_by_user ON season_ratings (user_id, season_id);
