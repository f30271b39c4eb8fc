"""The layers keep their import direction (design.md): the engine is standard library only,
tables and storage never import discord, SQL lives in bot/storage, nothing imports cogs."""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.support.import_graph import cycles, import_graph

ROOT = Path(__file__).resolve().parent.parent
SQL = re.compile(
    r"\b(SELECT\b.+\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM"
    r"|CREATE\s+(TABLE|INDEX|VIEW|TRIGGER)|ALTER\s+TABLE|DROP\s+TABLE|PRAGMA\s+\w+)\b",
    re.DOTALL,
)
EXECUTE_METHODS = {"execute", "executemany", "executescript", "execute_fetchall", "execute_insert"}


def python_files(*folders: str) -> Iterator[Path]:
    for folder in folders:
        yield from sorted((ROOT / folder).rglob("*.py"))


def imports(path: Path, source: str | None = None) -> Iterator[tuple[str, int]]:
    """(absolute module name, line) of every import; relative imports resolved to the package."""
    text = path.read_text(encoding="utf-8") if source is None else source
    tree = ast.parse(text, filename=str(path))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                yield f"{base}.{node.module}" if node.module else base, node.lineno
            else:
                yield node.module or "", node.lineno


def where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    files = list(python_files("bot/engine"))
    assert files, "bot/engine has no Python files"
    bad = [
        f"{where(path, line)} imports {module}"
        for path in files
        for module, line in imports(path)
        if module.split(".")[0] not in sys.stdlib_module_names
        and module != "bot.engine"
        and not module.startswith("bot.engine.")
    ]
    assert bad == []


def test_tables_and_storage_never_import_discord() -> None:
    bad = [
        f"{where(path, line)} imports {module}"
        for path in python_files("bot/tables", "bot/storage")
        for module, line in imports(path)
        if module.split(".")[0] == "discord"
    ]
    assert bad == []


def test_sql_lives_only_in_storage() -> None:
    found = []
    for path in python_files("bot", "cogs"):
        if path.is_relative_to(ROOT / "bot" / "storage"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in EXECUTE_METHODS
            ):
                found.append(f"{where(path, node.lineno)} calls .{node.func.attr}()")
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and SQL.search(node.value)
            ):
                found.append(f"{where(path, node.lineno)} holds SQL: {node.value[:60]!r}")
    assert found == []


def test_nothing_imports_cogs() -> None:
    bad = [
        f"{where(path, line)} imports {module}"
        for path in python_files("bot", "cogs", "tests", "scripts")
        for module, line in imports(path)
        if module == "cogs" or module.startswith("cogs.")
    ]
    assert bad == []


def test_the_product_never_imports_the_emulator_or_the_demo() -> None:
    # They live beside the product (emulator/, demo/) and are not in its Docker image.
    bad = [
        f"{where(path, line)} imports {module}"
        for path in python_files("bot", "cogs")
        for module, line in imports(path)
        if module.split(".")[0] in ("emulator", "demo", "tests")
    ]
    assert bad == []


def test_no_test_module_is_imported_as_a_library() -> None:
    # Shared helpers live in tests/support; a test module is only ever run, never imported.
    bad = [
        f"{where(path, line)} imports {module}"
        for path in python_files("tests", "scripts", "emulator", "demo")
        for module, line in imports(path)
        if module.split(".")[-1].startswith("test_") or module == "tests.conftest"
    ]
    assert bad == []


def test_the_docker_image_carries_only_the_product() -> None:
    copied = [
        line.split()[1]
        for line in (ROOT / "Dockerfile").read_text().splitlines()
        if line.startswith("COPY ")
    ]
    assert sorted(c for c in copied if not c.endswith(".lock")) == ["bot", "cogs"]
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {"emulator", "demo", "tests", "scripts"} <= set(ignored)


def test_the_layer_checks_would_catch_a_violation() -> None:
    # The checks above must be able to fail: parse offending code as if it were in the engine.
    source = "import json\nimport discord\nfrom . import common\nfrom ..tables import service\n"
    found = list(imports(ROOT / "bot" / "engine" / "probe.py", source))
    assert found == [("json", 1), ("discord", 2), ("bot.engine", 3), ("bot.tables", 4)]
    assert SQL.search("SELECT seat FROM players") and SQL.search("INSERT INTO t VALUES (1)")
    assert not SQL.search("Select the card you want from your hand")


def test_the_emulator_has_no_import_cycle() -> None:
    # Its parts receive what they need (small Protocols they declare) instead of importing the
    # server back; imports under `if TYPE_CHECKING:` count too.
    graph = import_graph(ROOT, "emulator")
    assert graph.get("emulator.server")
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_made_up_cycle(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "server.py").write_text("from pkg import parts\nfrom pkg.leaf import X\n")
    (package / "parts.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.server import S\n"
    )
    (package / "leaf.py").write_text("X = 1\n")
    (package / "a.py").write_text("def f():\n    from . import b\n")
    (package / "b.py").write_text("import pkg.a\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.server"] == {"pkg.parts", "pkg.leaf"}
    assert cycles(graph) == [["pkg.a", "pkg.b"], ["pkg.parts", "pkg.server"]]
    assert cycles({"x": {"x"}, "y": set()}) == [["x"]]


# The UI in rooms (docs/architecture.md): kit/ and words/ serve every feature; a feature reaches
# another only along these arrows, so each feature is one room with one door.
FEATURES = ("table", "fair", "after_game", "boards", "tournament")
SHARED = ("kit", "words")
ALLOWED = {"table": {"fair", "after_game"}, "boards": {"after_game"}}


def ui_room(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[:2] == ["bot", "ui"] else None


def room_crossings() -> list[str]:
    bad = []
    for path in python_files("bot/ui"):
        here = ui_room(".".join(path.relative_to(ROOT).with_suffix("").parts))
        for module, line in imports(path):
            there = ui_room(module)
            if module == "bot.client" or module.startswith("cogs"):
                bad.append(f"{where(path, line)} imports {module}")
            if here is None or there is None or there == here or there in SHARED:
                continue
            if here in SHARED or there not in ALLOWED.get(here, set()):
                bad.append(f"{where(path, line)} ({here}) imports {module} ({there})")
    return bad


def test_ui_rooms_import_only_along_their_arrows() -> None:
    rooms = {
        ui_room(".".join(p.relative_to(ROOT).with_suffix("").parts)) for p in python_files("bot/ui")
    }
    assert set(FEATURES) | set(SHARED) <= rooms, "a room of docs/architecture.md is missing"
    assert room_crossings() == []


def test_no_module_of_bot_sits_at_the_top_of_bot_ui() -> None:
    # Every ui module lives in a room; bot/ui/__init__.py is the only file at the top.
    assert [p.name for p in (ROOT / "bot" / "ui").glob("*.py")] == ["__init__.py"]


def test_bot_has_no_import_cycle() -> None:
    # Every import counts, those inside functions too; only `if TYPE_CHECKING:` blocks are left
    # out (they never run).
    graph = import_graph(ROOT, "bot", skip_type_checking=True)
    assert graph.get("bot.client")
    assert cycles(graph) == []


def test_no_import_of_the_ui_or_the_tables_sits_inside_a_function() -> None:
    # An import inside a function is how a cycle hides (issue 29): every import of the UI, the
    # table service, the engines and the cogs is at the top of its module (or under
    # `if TYPE_CHECKING:`, for types only). Elsewhere a function may import an optional
    # dependency when it is used (uvloop, asyncpg), which the cycle test still counts.
    found = []
    for path in python_files("bot/ui", "bot/tables", "bot/engine", "cogs"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [
                    where(path, inner.lineno)
                    for inner in ast.walk(node)
                    if isinstance(inner, ast.Import | ast.ImportFrom)
                ]
    assert found == []


def test_the_cycle_finder_skips_only_type_checking_blocks(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import b\n"
    )
    (package / "b.py").write_text("def f():\n    from pkg import a\n")
    graph = import_graph(tmp_path, "pkg", skip_type_checking=True)
    assert graph["pkg.a"] == set() and graph["pkg.b"] == {"pkg.a"}
    assert cycles(import_graph(tmp_path, "pkg")) == [["pkg.a", "pkg.b"]]


def test_no_module_of_the_ui_is_much_over_400_lines() -> None:
    # Issue 29: modules small enough to read in one sitting ("about 400"); bot/tables has the
    # same limit in tests/tables/test_tables_seams.py.
    sizes = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in python_files("bot/ui")
    }
    assert sizes and {name: n for name, n in sizes.items() if n > 430} == {}
