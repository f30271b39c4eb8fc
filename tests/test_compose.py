"""docker-compose.yml (issue 14): PostgreSQL and one bot process per shard, every shard id of
SHARD_COUNT run exactly once, all on the one database; each process's shard settings load."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import yaml

from bot.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def test_compose_runs_postgres_and_every_shard_once_on_one_database() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert services["postgres"]["image"].startswith("postgres:")
    assert "healthcheck" in services["postgres"]
    bots = {name: s for name, s in services.items() if name != "postgres"}
    assert len(bots) == 2
    shards: list[tuple[int, int]] = []
    urls = set()
    for service in bots.values():
        env = service["environment"]
        assert service["build"] == "."
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        settings = Settings.load({"DISCORD_TOKEN": "x", **env}, ROOT / "no-such.env")
        assert settings.shards is not None
        shards += settings.shards
        url = urlparse(env["DATABASE_URL"])
        assert url.scheme == "postgresql" and url.hostname == "postgres"
        urls.add(env["DATABASE_URL"])
    assert sorted(shards) == [(0, 2), (1, 2)]
    assert len(urls) == 1  # one database for all shards
    postgres_env = services["postgres"]["environment"]
    (url,) = (urlparse(u) for u in urls)
    assert (url.username, url.password, url.path) == (
        postgres_env["POSTGRES_USER"],
        postgres_env["POSTGRES_PASSWORD"],
        "/" + postgres_env["POSTGRES_DB"],
    )
