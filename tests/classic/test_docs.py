"""The examples in docs/classic-engine.md and in the classic engine's docstrings run."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
MODULES = ["app.classic.actions", "app.classic.events", "app.classic.scenario"]


def test_classic_engine_guide_examples_run() -> None:
    result = doctest.testfile(str(DOCS / "classic-engine.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10
    assert result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
