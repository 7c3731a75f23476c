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
SERVICES_MODULE_LINES = 500
"""No service module longer than this: one part of the service a module (issue 34)."""


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


def test_no_service_module_is_over_500_lines() -> None:
    long = {path.name: n for path in (APP / "services").glob("*.py")
            if (n := len(path.read_text().splitlines())) > SERVICES_MODULE_LINES}
    assert long == {}


ENGINE_PARTS = ("app/engine", "app/classic", "app/bots")
"""The pure parts: the rules engines and the computer players."""
ENGINE_TOOLS = {"app/engine/play.py", "app/engine/replay.py", "app/bots/worker.py"}
"""Beside them, not part of them: two command-line tools and the worker processes' runner."""
PURE_IMPORTS = frozenset({
    "__future__", "app", "abc", "bisect", "collections", "copy", "dataclasses", "enum",
    "functools", "hashlib", "heapq", "importlib", "itertools", "json", "math",
    "mypy_extensions", "operator", "pathlib", "re", "statistics", "tomllib", "types",
    "typing"})
"""What an engine or a bot may import: no clock (time, datetime), no global random, no OS,
network, threads or database; ``pathlib``, ``importlib`` and ``tomllib`` read the data
files once, when a module is imported."""


PURE_APP = ("app.engine", "app.classic", "app.bots")
"""The project's own modules an engine or a bot may import: each other's, never the
database, the services or the clock."""


def impure_imports(root: Path) -> list[str]:
    """Every import, in the pure parts under ``root``, of a module not in PURE_IMPORTS."""
    found: list[str] = []
    for part in ENGINE_PARTS:
        for path in sorted((root / part).rglob("*.py")):
            if path.relative_to(root).as_posix() in ENGINE_TOOLS:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                names = [alias.name for alias in node.names] \
                    if isinstance(node, ast.Import) else \
                    [node.module] if isinstance(node, ast.ImportFrom) and not node.level \
                    and node.module else []
                found += [f"{path.relative_to(root)} imports {name}" for name in names
                          if name.split(".")[0] not in PURE_IMPORTS
                          or (name.startswith("app.") and not name.startswith(PURE_APP))]
    return found


def test_the_engines_and_bots_read_no_clock_no_global_random_and_no_io() -> None:
    assert impure_imports(APP.parent) == []


def test_the_purity_check_sees_a_clock(tmp_path: Path) -> None:
    engine = tmp_path / "app" / "classic"
    engine.mkdir(parents=True)
    (engine / "game.py").write_text("import time\nfrom random import random\n"
                                    "from collections import deque\n"
                                    "from app.db.session import make_engine\n"
                                    "from app.engine.rng import Rng\n")
    assert impure_imports(tmp_path) == ["app/classic/game.py imports time",
                                        "app/classic/game.py imports random",
                                        "app/classic/game.py imports app.db.session"]
