"""The import graph of a package drawn from its source (every `import`, those under
`if TYPE_CHECKING:` and inside functions included), and the cycles in it."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path


def module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_blocks(tree: ast.AST) -> set[int]:
    """The ids of the import nodes under `if TYPE_CHECKING:` (never run, so never a cycle)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                skipped.update(id(n) for n in ast.walk(inner))
    return skipped


def imported_names(
    tree: ast.AST, package: str, *, skip_type_checking: bool = False
) -> Iterable[tuple[str, list[str]]]:
    """Every import as (the module it names, the submodules it may name): `from a import b`
    names `a` and may import module `a.b`."""
    skipped = _type_checking_blocks(tree) if skip_type_checking else set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            yield from ((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            yield base, [f"{base}.{alias.name}" for alias in node.names]


def import_graph(
    root: Path, package: str, *, skip_type_checking: bool = False
) -> dict[str, set[str]]:
    """module -> the modules of `package` it imports (the package's own `__init__` counts only
    when named outright, as `from emulator import x` names x, not the package's body)."""
    files = {module_name(root, p): p for p in sorted((root / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        own = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for base, submodules in imported_names(tree, own, skip_type_checking=skip_type_checking):
            modules = [m for m in submodules if m in files]
            targets.update(modules)
            # `from a import b, c` where b and c are modules names them, not a's body (the
            # package's __init__ runs first, but that is how submodules are reached).
            if len(modules) < len(submodules) or not submodules:
                targets.add(base)
        targets = {m for m in targets if m in files and m != name}
        # `from emulator import payloads` names emulator.payloads, not emulator/__init__.py.
        if package in targets and not _imports_package_body(tree, package):
            targets.discard(package)
        graph[name] = targets
    return graph


def _imports_package_body(tree: ast.AST, package: str) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == package for a in node.names):
            return True
    return False


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (or a self-import), each
    sorted: Tarjan's algorithm, iterative so a deep graph cannot overflow the stack."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph.get(start, ())))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, pending = work[-1]
            if pending:
                nxt = pending.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    found.append(sorted(component))
    return found
