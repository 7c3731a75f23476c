"""A finished game's analysis spread over several processes reads what one process reads,
position for position, whatever order the positions come back in; and it runs on every
core unless told otherwise."""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Callable
from typing import Any

import pytest

from app.bots.worker import Record, analyse, record_of
from app.config import Settings
from app.engine import Forfeit, Game, Options
from app.services.computer import Thinkers, read_positions
from tests.api.test_computer import ThreadThinkers

ITERATIONS = 12
SEED = 4242


def _finished_record() -> Record:
    """A seeded random game of 24 actions, then a resignation (a position nobody chose
    a move in, which the analysis leaves out)."""
    game = Game.new(17, Options())
    choose = random.Random(17).choice
    while len(game.log) < 24:
        game.apply(choose(game.legal_actions()))
    game.apply(Forfeit(0, "resigned"))
    return record_of(game)


async def _read(thinkers: Thinkers, record: Record) -> list[list[dict[str, object]]]:
    try:
        return [list(readings) async for readings in
                read_positions(thinkers, record, ITERATIONS, SEED)]
    finally:
        thinkers.close()


async def test_several_processes_read_what_one_process_reads() -> None:
    record = _finished_record()
    one_process = analyse(record, ITERATIONS, SEED)
    assert [p["version"] for p in one_process] == list(range(24))
    for thinkers in (Thinkers(1, analysis_workers=1), Thinkers(1, analysis_workers=2),
                     ThreadThinkers(1, analysis_workers=5)):
        steps = await _read(thinkers, record)
        assert steps[-1] == one_process
        # The readings so far, each time in the game's order, only ever growing.
        for before, after in itertools.pairwise(steps):
            assert len(after) > len(before)
            assert {p["version"] for p in before} <= {p["version"] for p in after}
        assert all([p["version"] for p in step] == sorted(p["version"] for p in step)
                   for step in steps)


async def test_a_position_that_cannot_be_read_ends_the_analysis() -> None:
    class Failing(ThreadThinkers):
        async def analysis(self, fn: Callable[..., Any], *args: Any) -> Any:
            if args[1] in (3, 4):  # the version
                raise RuntimeError("the worker died")
            return await super().analysis(fn, *args)

    with pytest.raises(RuntimeError, match="the worker died"):
        await _read(Failing(1, analysis_workers=3), _finished_record())


def test_the_analysis_has_a_process_per_core_unless_told() -> None:
    assert Settings(analysis_workers=0).analysis_processes() == (os.cpu_count() or 1)
    assert Settings(analysis_workers=3).analysis_processes() == 3
