"""Settings from the environment or from a `.env` file beside the project (the environment wins)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE = PROJECT_ROOT / "data" / "cardtable.sqlite3"


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one sentence for the person starting it."""


class DatabaseUrlError(SettingsError):
    """DATABASE_URL names no back-end this bot has."""


@dataclass(frozen=True)
class DatabaseTarget:
    kind: str  # "sqlite" | "postgresql"
    path: Path | None = None  # sqlite
    dsn: str | None = None  # postgresql

    def describe(self) -> str:
        """For logs: never the password."""
        if self.kind == "sqlite":
            return f"SQLite {self.path}"
        assert self.dsn is not None
        rest = self.dsn.split("://", 1)[1]
        return f"PostgreSQL {rest.rsplit('@', 1)[-1]}"


def parse_database_url(url: str | None, default_path: Path) -> DatabaseTarget:
    url = (url or "").strip()
    if not url:
        return DatabaseTarget("sqlite", path=default_path)
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        if not path or path == ":memory:":
            raise DatabaseUrlError("DATABASE_URL=sqlite:///PATH needs a file path")
        return DatabaseTarget("sqlite", path=Path(path))
    if url.startswith(("postgresql://", "postgres://")):
        return DatabaseTarget("postgresql", dsn=url)
    scheme = url.split(":", 1)[0]
    raise DatabaseUrlError(
        f"DATABASE_URL must start with sqlite:/// or postgresql://, not {scheme!r}."
    )


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; `#` comments, blank lines and optional quotes around the value."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key] = value
    return values


@dataclass(frozen=True)
class Settings:
    token: str | None
    database_path: Path = DEFAULT_DATABASE
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    bot_move_delay: float = 1.0  # seconds a bot seat "thinks" before it plays
    # Sharding (issue 14): SHARD_COUNT shards in all, this process runs SHARD_IDS of them (all
    # of them when only SHARD_COUNT is set). Unset: one process, every guild.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # DATABASE_URL: unset = the SQLite file at database_path; sqlite:///PATH or
    # postgresql://... (see bot.storage.backend).
    database_url: str | None = None
    # New tables deal provably fair (docs/fair-deals.md); FAIR_DEALS=0 deals as before.
    fair_deals: bool = True
    # fair-v2's drand relays (BEACON_RELAYS, comma-separated URLs; the first that answers wins).
    beacon_relays: tuple[str, ...] = (
        "https://api.drand.sh",
        "https://api2.drand.sh",
        "https://api3.drand.sh",
        "https://drand.cloudflare.com",
    )

    def __repr__(self) -> str:  # the token is never printed, not even by accident
        return (
            f"Settings(token={'set' if self.token else 'unset'}, "
            f"database_path={str(self.database_path)!r}, dev_guild_id={self.dev_guild_id}, "
            f"log_level={self.log_level!r}, bot_move_delay={self.bot_move_delay}, "
            f"database={self.database.describe()!r}, "
            f"shard_count={self.shard_count}, shard_ids={self.shard_ids})"
        )

    @property
    def shards(self) -> list[tuple[int, int]] | None:
        """The (shard_id, shard_count) pairs this process runs; None: unsharded."""
        if self.shard_count is None:
            return None
        ids = self.shard_ids if self.shard_ids is not None else range(self.shard_count)
        return [(i, self.shard_count) for i in ids]

    @property
    def database(self) -> DatabaseTarget:
        """The back-end and where it is: DATABASE_URL, else the SQLite file database_path."""
        return parse_database_url(self.database_url, self.database_path)

    @classmethod
    def load(cls, env: dict[str, str] | None = None, env_file: Path | None = None) -> Settings:
        merged = read_env_file(env_file or PROJECT_ROOT / ".env")
        merged.update(os.environ if env is None else env)

        def number(name: str, kind: type[int] | type[float], default: float | None) -> float | None:
            text = merged.get(name, "").strip()
            if not text:
                return default
            try:
                return kind(text)
            except ValueError:
                raise SettingsError(f"{name} must be a number, not {text!r}.") from None

        guild = number("DEV_GUILD_ID", int, None)
        delay = number("BOT_MOVE_DELAY", float, 1.0)
        database = merged.get("DATABASE_PATH", "").strip()
        count = number("SHARD_COUNT", int, None)
        ids_text = merged.get("SHARD_IDS", "").strip()
        shard_ids: tuple[int, ...] | None = None
        if count is not None and count < 1:
            raise SettingsError(f"SHARD_COUNT must be at least 1, not {int(count)}.")
        if ids_text:
            if count is None:
                raise SettingsError("SHARD_IDS needs SHARD_COUNT (the number of shards in all).")
            try:
                shard_ids = tuple(int(part) for part in ids_text.replace(",", " ").split())
            except ValueError:
                raise SettingsError(
                    f"SHARD_IDS must be shard numbers separated by commas, not {ids_text!r}."
                ) from None
            bad = [i for i in shard_ids if not 0 <= i < count]
            if bad or len(set(shard_ids)) != len(shard_ids):
                raise SettingsError(
                    f"SHARD_IDS must be distinct numbers from 0 to {int(count) - 1}, "
                    f"not {ids_text!r}."
                )
        url = merged.get("DATABASE_URL", "").strip() or None
        parse_database_url(url, DEFAULT_DATABASE)  # a bad URL is a SettingsError now
        listed = [r.strip() for r in merged.get("BEACON_RELAYS", "").split(",") if r.strip()]
        if any(not r.startswith(("https://", "http://")) for r in listed):
            raise SettingsError(f"BEACON_RELAYS are http(s) URLs, not {listed!r}.")
        relays: dict[str, Any] = {"beacon_relays": tuple(listed)} if listed else {}
        return cls(
            token=merged.get("DISCORD_TOKEN", "").strip() or None,
            database_path=Path(database) if database else DEFAULT_DATABASE,
            dev_guild_id=int(guild) if guild is not None else None,
            log_level=merged.get("LOG_LEVEL", "INFO").strip().upper() or "INFO",
            bot_move_delay=float(delay if delay is not None else 1.0),
            shard_count=int(count) if count is not None else None,
            shard_ids=shard_ids,
            database_url=url,
            fair_deals=merged.get("FAIR_DEALS", "1").strip().lower() not in ("0", "no", "off"),
            **relays,
        )
