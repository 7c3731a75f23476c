"""The layers import one way (docs/architecture.md): api → realtime → services → engines and
db, and none of them from a layer above it. Read from the modules' own import statements,
so a new upward import fails here rather than in a review."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"

LAYERS: list[frozenset[str]] = [
    frozenset({"main", "serving"}),
    frozenset({"api", "observability", "i18n"}),
    frozenset({"realtime"}),
    frozenset({"services"}),
    frozenset({"bots", "codes"}),
    frozenset({"engine", "classic", "db"}),
    frozenset({"config", "jsontext", "clock"}),
]
"""The top-level parts of ``app`` from the top layer down: a module may import from its own
layer's parts and from any layer below."""
CROSS_ALLOWED: set[tuple[str, str]] = {("bots", "engine"), ("codes", "engine")}
"""Imports between parts one row above the other in spirit (the computer players read the
rules; the wire's codes name the engine's): kept explicit rather than a layer each."""


def _part(module: str) -> str:
    """``app.services.games`` -> ``services``; ``app.config`` -> ``config``."""
    return module.split(".")[1]


def _layer(part: str) -> int:
    for depth, parts in enumerate(LAYERS):
        if part in parts:
            return depth
    raise AssertionError(f"app/{part} is in no layer: add it to LAYERS")


def _imports(path: Path, root: Path) -> list[str]:
    """The ``app`` modules the file at ``path`` (under ``root``, the directory holding
    ``app``) imports, relative imports resolved."""
    package = list(path.relative_to(root).parent.parts)
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            if node.module is None:  # from . import x: the names are modules
                found += [".".join([*base, alias.name]) for alias in node.names]
            else:
                found.append(".".join([*base, node.module]))
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
    return [name for name in found if name.startswith("app.")]


def upward_imports(root: Path) -> list[str]:
    """Every import, in the ``app`` under ``root``, from a layer above the importer's."""
    upward: list[str] = []
    for path in sorted((root / "app").rglob("*.py")):
        if path.parent == root / "app" and path.stem == "__init__":
            continue
        importer = _part(".".join(path.relative_to(root).with_suffix("").parts))
        for imported in _imports(path, root):
            target = _part(imported)
            if target == importer or (importer, target) in CROSS_ALLOWED:
                continue
            if _layer(target) < _layer(importer):
                upward.append(f"{path.relative_to(root)} imports {imported}")
    return upward


def test_no_layer_imports_from_a_layer_above_it() -> None:
    assert upward_imports(APP.parent) == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """A service importing from realtime, absolutely or relatively, is what the check
    exists to catch; an import from the same layer or below is not."""
    services = tmp_path / "app" / "services"
    services.mkdir(parents=True)
    (services / "moves.py").write_text(
        "from app.realtime.hub import Hub\n"
        "from ..realtime import lobby\n"
        "from . import clocks\n"
        "from app.db.pubsub import PubSub\n")
    assert upward_imports(tmp_path) == [
        "app/services/moves.py imports app.realtime.hub",
        "app/services/moves.py imports app.realtime",
    ]

