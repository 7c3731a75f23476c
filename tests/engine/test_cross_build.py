"""The engine under test plays exactly the same games as pure Python in another process.

In the compiled run (``make pytest-compiled``) this compares the mypyc build, in this
process, with the source in a fresh interpreter; in the normal run both are the source, and
the fresh interpreter's other hash seed shows that no result depends on the order of a set
or a dict of strings. Each game is compared by its final state hash and a digest of all its
events.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import app.engine.game
from tests.engine.golden import record

pytestmark = pytest.mark.compiled

ROOT = Path(__file__).resolve().parents[2]
GAMES = 200
KINDS = sorted(record.CHOOSERS)


def is_compiled() -> bool:
    return not str(app.engine.game.__file__).endswith(".py")


def play(seeds: range) -> list[tuple[str, str]]:
    """(final state hash, events digest) of one seeded game per seed, each with a player
    of another kind (uniform, keen on a colour, on wonders...), so that every kind of game
    turns up."""
    out = []
    for seed in seeds:
        game, events = record.play(seed, record.OPTIONS[seed % len(record.OPTIONS)],
                                   KINDS[seed % len(KINDS)])
        out.append((game.state_hash(), record.events_digest(events)))
    return out


def test_the_same_seeds_give_the_same_games_in_pure_python_in_another_process() -> None:
    here = play(range(GAMES))
    code = ("import json, sys; from tests.engine.test_cross_build import is_compiled, play; "
            f"json.dump([is_compiled(), play(range({GAMES}))], sys.stdout)")
    own_seed = os.environ.get("PYTHONHASHSEED", "")
    env = {**os.environ, "PYTHONPATH": str(ROOT),
           "PYTHONHASHSEED": "1" if own_seed == "0" else "0"}
    child = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120, check=False)
    assert child.returncode == 0, child.stderr
    compiled_there, there = json.loads(child.stdout)
    assert not compiled_there, "the other process should run the source"
    mismatched = [seed for seed, (a, b) in enumerate(zip(here, map(tuple, there), strict=True))
                  if a != b]
    build = "compiled" if is_compiled() else "pure"
    assert not mismatched, f"the {build} build plays seeds {mismatched} differently"
