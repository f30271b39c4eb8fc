"""The structure of `bot/` as rooms and arrows, drawn from the imports: each folder of bot/ui is a
room (kit, words and one per feature); every other package of bot/ is one room. Prints each room
with its modules and lines, the arrows between rooms (how many imports each), the largest
modules, and any import cycle (imports under `if TYPE_CHECKING:` left out, those inside
functions counted).

    python3 scripts/ui_rooms.py [--root DIR]

`--root` reads another checkout (an older commit's `git worktree`), to compare before and after.
Standard library only; the import graph is tests/support/import_graph.py's.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from tests.support.import_graph import cycles, import_graph  # noqa: E402


def room_of(root: Path, module: str) -> str:
    parts = module.split(".")
    if parts[:2] == ["bot", "ui"] and len(parts) > 2:
        return "ui/" + parts[2] if (root / "bot" / "ui" / parts[2]).is_dir() else "ui (flat)"
    if len(parts) > 1 and (root / "bot" / parts[1]).is_dir():
        return parts[1]
    return "bot"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HERE)
    root = parser.parse_args().root.resolve()
    graph = import_graph(root, "bot", skip_type_checking=True)
    lines = {
        m: len((root / (m.replace(".", "/") + ".py")).read_text().splitlines())
        for m in graph
        if (root / (m.replace(".", "/") + ".py")).exists()
    }
    rooms: dict[str, list[str]] = {}
    for module in graph:
        rooms.setdefault(room_of(root, module), []).append(module)
    print(f"bot/ at {root}: {len(graph)} modules in {len(rooms)} rooms\n")
    print("ROOMS (modules, lines)")
    for room in sorted(rooms):
        total = sum(lines.get(m, 0) for m in rooms[room])
        print(f"  {room:<18} {len(rooms[room]):>3} modules {total:>6} lines")
    arrows: Counter[tuple[str, str]] = Counter()
    ui_arrows = 0
    for module, targets in graph.items():
        for target in targets:
            if module.startswith("bot.ui.") and target.startswith("bot.ui."):
                ui_arrows += 1
            here, there = room_of(root, module), room_of(root, target)
            if here != there:
                arrows[(here, there)] += 1
    print(f"\nARROWS between rooms (imports); {ui_arrows} imports among bot/ui modules")
    for (here, there), count in sorted(arrows.items()):
        print(f"  {here:<18} -> {there:<18} {count:>3}")
    print("\nLARGEST MODULES of bot/ui and bot/tables")
    big = sorted(
        (m for m in lines if m.startswith(("bot.ui.", "bot.tables."))), key=lambda m: -lines[m]
    )
    for module in big[:8]:
        print(f"  {lines[module]:>5}  {module}")
    found = cycles(graph)
    print(f"\nIMPORT CYCLES: {len(found)}")
    for cycle in found:
        print(f"  {len(cycle)} modules: " + ", ".join(cycle))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
