"""The engine's tests use its public API: none reaches into a private method or attribute.

Positions are arranged with :mod:`app.engine.scenario`, which the engine keeps working;
a test that called ``game._something`` would break with any refactoring of the engine.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SOURCES = sorted(path for path in HERE.rglob("*.py") if path.name != Path(__file__).name)


def _private(name: str) -> bool:
    """``_name`` is private; ``__dunder__`` names are not."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(source: str) -> list[tuple[int, str]]:
    """Where ``source`` reaches into something private of another module: ``x._name``,
    ``from m import _name``, ``getattr(x, "_name")``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.ImportFrom):
            found += [(node.lineno, alias.name) for alias in node.names if _private(alias.name)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "setattr", "hasattr") and len(node.args) > 1 \
                and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str) \
                and _private(node.args[1].value):
            found.append((node.lineno, node.args[1].value))
    return found


def test_the_check_sees_every_way_in() -> None:
    source = ("from app.engine.game import _HANDLERS\n"
              "game._advance()\nx = getattr(game, '_cache')\nstate.__class__\n")
    assert sorted(private_uses(source)) == [(1, "_HANDLERS"), (2, "_advance"), (3, "_cache")]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_engine_test_uses_a_private_member(path: Path) -> None:
    found = private_uses(path.read_text())
    assert not found, [f"{path.name}:{line}: {name}" for line, name in found]
