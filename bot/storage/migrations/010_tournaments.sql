-- 010: tournaments (issue 23). A tournament is its config and its action log, like a table:
-- its state is rebuilt by replaying the actions (bot/tables/tournament.py). An action is
-- appended only as the next one (seq = version), in the transaction that bumps the version, so
-- two processes or a replayed step after a restart cannot both write it.

CREATE TABLE tournaments (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    host_id    INTEGER NOT NULL,
    config     TEXT    NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
    version    INTEGER NOT NULL CHECK (version >= 0),
    message_id INTEGER,
    created_at REAL    NOT NULL
) STRICT;

-- One running tournament per channel.
CREATE UNIQUE INDEX tournaments_one_open_per_channel
    ON tournaments (channel_id) WHERE status <> 'finished';

CREATE TABLE tournament_actions (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL CHECK (seq >= 0),
    action        TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, seq)
) STRICT, WITHOUT ROWID;
