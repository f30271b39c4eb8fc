-- 006 (PostgreSQL twin of ../006_house_rules.sql): a server's house rules (issue 21), per game:
-- the options and table settings that its new tables start with (`/settings`), as JSON objects
-- holding only the values the admin set; the options of `/euchre new` and `/truco new` override
-- them, and the lobby can still change them.

CREATE TABLE IF NOT EXISTS house_rules (
    guild_id    BIGINT NOT NULL,
    game        TEXT NOT NULL,
    options     TEXT NOT NULL,
    settings    TEXT NOT NULL,
    set_by      BIGINT NOT NULL,
    set_at      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game)
);
