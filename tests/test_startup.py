"""Starting the bot: settings from the environment and .env, and the one-sentence refusals."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import NO_TOKEN, settings_problem
from bot.settings import DEFAULT_DATABASE, Settings, SettingsError

ROOT = Path(__file__).resolve().parent.parent


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DEV_GUILD_ID"}}
    env.update(extra)
    return env


def test_settings_come_from_the_env_file_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# comment\nDISCORD_TOKEN='from-file'\nexport DEV_GUILD_ID=42\nLOG_LEVEL=debug\n"
        "BOT_MOVE_DELAY=0.5\n\nnot a line\n"
    )
    settings = Settings.load(env={"DISCORD_TOKEN": "from-env"}, env_file=env_file)
    assert settings.token == "from-env"
    assert settings.dev_guild_id == 42 and settings.log_level == "DEBUG"
    assert settings.bot_move_delay == 0.5 and settings.database_path == DEFAULT_DATABASE
    assert "from-env" not in repr(settings)  # the token is never printed


def test_a_malformed_number_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="DEV_GUILD_ID must be a number"):
        Settings.load(env={"DEV_GUILD_ID": "abc"}, env_file=tmp_path / "none")


def test_no_token_stops_run_and_sync_but_not_the_demo_or_a_backup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr("bot.settings.PROJECT_ROOT", Path("/nonexistent"))
    assert settings_problem([]) == NO_TOKEN
    assert settings_problem(["sync"]) == NO_TOKEN
    assert settings_problem(["--demo"]) is None
    assert settings_problem(["backup", "x.sqlite3"]) is None


def test_python_m_bot_without_a_token_exits_at_once_with_one_sentence(tmp_path: Path) -> None:
    # A copy without .env, so a developer's own token cannot make this pass or fail.
    shutil.copytree(ROOT / "bot", tmp_path / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == NO_TOKEN and "Traceback" not in done.stderr


def test_dev_py_run_says_it_before_installing_anything(tmp_path: Path) -> None:
    for name in ("dev.py", "requirements.lock", "requirements-dev.lock"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "bot", tmp_path / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run(
        [sys.executable, "dev.py", "run"],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert done.returncode == 2 and done.stderr.strip() == NO_TOKEN
    assert not (tmp_path / ".venv").exists()
