"""The test run checks the engine build it was asked to check."""

from __future__ import annotations

import os

import pytest

import app.engine.actions
import app.engine.costs
import app.engine.events
import app.engine.game
import app.engine.rng

pytestmark = pytest.mark.compiled


@pytest.mark.skipif(os.environ.get("DUEL_EXPECT_COMPILED") != "1",
                    reason="only the Makefile's compiled run expects compiled modules")
def test_the_compiled_run_really_imports_the_compiled_engine() -> None:
    for module in (app.engine.game, app.engine.actions, app.engine.events, app.engine.costs,
                   app.engine.rng):
        assert not str(module.__file__).endswith(".py"), f"{module.__name__} is not compiled"
