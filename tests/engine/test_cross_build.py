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
import random
import subprocess
import sys
from pathlib import Path

import pytest

import app.engine.game
from app.engine import CARD_BY_ID, BuildCard, Game, Options
from tests.engine.golden.record import events_digest

pytestmark = pytest.mark.compiled

ROOT = Path(__file__).resolve().parents[2]
GAMES = 200
FAVOURITES = (None, "green", "red", "blue")


def is_compiled() -> bool:
    return not str(app.engine.game.__file__).endswith(".py")


def play(seeds: range) -> list[tuple[str, str]]:
    """(final state hash, events digest) of one seeded game per seed, each with a chooser
    keen on a colour (or none), so that every kind of game turns up."""
    out = []
    for seed in seeds:
        options = Options(wonder_selection="first_game" if seed % 9 == 0 else "draft")
        game = Game.new(seed, options)
        chooser = random.Random(seed)
        favourite = FAVOURITES[seed % len(FAVOURITES)]
        events = []
        while not game.is_over:
            legal = game.legal_actions()
            preferred = [a for a in legal if isinstance(a, BuildCard)
                         and CARD_BY_ID[a.card].color.name.lower() == favourite]
            events.append(game.apply(chooser.choice(preferred or legal)))
        out.append((game.state_hash(), events_digest(events)))
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
