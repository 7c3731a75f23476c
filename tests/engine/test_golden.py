"""Golden games: whole recorded games replay to exactly what they ended with.

Each file of tests/engine/golden holds a seed, options, an action log, what the game shows
(victory, wonders built, tokens taken, ...) and the figures it ended with (state hash, a
digest of every event, winner, victory, both totals), all recorded by
``python -m tests.engine.golden.record``. Together the files cover every victory
(a shared one too), every wonder built, every progress token taken (some from the Great
Library), the Mausoleum and both destroy effects: a rule change that alters any of these
games fails here. Record again only when that is intended, and bump ENGINE_VERSION.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from app.engine import ENGINE_VERSION, Event, Game, Options
from tests.engine.golden.record import (
    LIBRARY_TOKENS_REQUIRED,
    REQUIRED,
    coverage,
    events_digest,
)

pytestmark = pytest.mark.compiled

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


@cache
def replay(path: Path) -> tuple[dict[str, Any], Game, tuple[list[Event], ...]]:
    """A golden file, its game replayed action by action, and each action's events."""
    record = json.loads(path.read_text())
    game = Game.new(record["seed"], Options.from_json(record["options"]))
    events = tuple(game.apply(notation) for notation in record["actions"])
    return record, game, events


def test_there_are_a_few_dozen_golden_games() -> None:
    assert len(FILES) >= 24


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_a_golden_game_replays_to_what_it_ended_with(path: Path) -> None:
    record, game, events = replay(path)
    assert record["engine_version"] == ENGINE_VERSION, "recorded under another engine version"
    assert game.is_over and len(game.log) == len(record["actions"])
    outcome = game.outcome()
    assert outcome is not None
    expected = record["expected"]
    assert (outcome.winner, outcome.victory, [sheet.total for sheet in outcome.scores]) == (
        expected["winner"], expected["victory"], expected["totals"])
    assert game.state_hash() == expected["state_hash"]
    assert events_digest(events) == expected["events_digest"]
    assert sorted(coverage(events)) == record["shows"]


def test_the_golden_games_cover_every_victory_wonder_token_and_special_effect() -> None:
    covered: set[str] = set()
    for path in FILES:
        shows = replay(path)[0]["shows"]
        assert shows == sorted(coverage(replay(path)[2])), path.name
        covered |= set(shows)
    assert sorted(REQUIRED - covered) == []
    assert "victory:shared" in covered
    from_library = {name for name in covered if name.startswith("library:")}
    assert len(from_library) >= LIBRARY_TOKENS_REQUIRED, from_library
