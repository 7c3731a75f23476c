"""The examples in docs/engine.md and in the engine's docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
MODULES = ["app.engine.actions", "app.engine.events", "app.engine.game", "app.engine.scenario"]


def test_engine_guide_examples_run() -> None:
    result = doctest.testfile(str(DOCS / "engine.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10
    assert result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    if not str(module.__file__).endswith(".py"):
        pytest.skip("a compiled module keeps no docstrings to run")
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
