"""The engine's tests use its public API: none reaches into a private method or attribute.

Positions are arranged with :mod:`app.engine.scenario`, which the engine keeps working;
a test that called ``game._something`` would break with any refactoring of the engine.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SOURCES = sorted(path for path in HERE.rglob("*.py") if path.name != Path(__file__).name)
PRIVATE = re.compile(r"\._[a-z]\w*")
"""``x._name``: a private member (``__dunder__`` names are fine)."""


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_no_engine_test_uses_a_private_member(path: Path) -> None:
    found = [f"{path.name}:{number}: {line.strip()}"
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if PRIVATE.search(line)]
    assert not found, found
