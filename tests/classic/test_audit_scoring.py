"""Audit: final scoring on rich cities set up at random just before the game ends, compared
with the oracle: military (RO L390-401), treasury (RO L403-410), wonder (RO L412-417),
civilian (RO L419-427), science with wildcards maximised (RO L429-487, L705, L1143-1145),
commerce (RO L489-496, L1063-1090), guilds (RO L498-502, L1094-1148), Olympia B's copy
(RO L698-706) and places with ties on coins (RO L385-388)."""

from __future__ import annotations

import random

import pytest

from app.classic import Game, Options, science_points, view
from app.classic.scenario import coins, put, stages, table

from .audit_driver import Audit, _check_scores
from .audit_oracle import CARD_ROWS, STAGES, science_score

BUILDINGS = sorted({row["id"] for row in CARD_ROWS})
GUILDS = [row["id"] for row in CARD_ROWS if row["color"] == "purple"]
SCIENCE = [row["id"] for row in CARD_ROWS if row["color"] == "green"]


def ended_game(seed: int) -> Game:
    rng = random.Random(seed)
    players = rng.randint(3, 7)
    game = Game.new(seed, Options(players=players, sides=rng.choice(["A", "B", "random"])))
    while not (game.age == 3 and game.turn == 6):
        for seat in list(game.pending()):
            game.apply(seat, next(a for a in game.legal_actions(seat)
                              if str(a).startswith("discard")))
    for seat in range(players):
        shown = view(game, None)["seats"][seat]
        stage_count = len(STAGES[(shown["board"], shown["side"])])
        stages(game, seat, rng.randint(0, stage_count))
        pool = rng.sample(BUILDINGS, rng.randint(0, 20))
        if rng.random() < 0.5:   # science-heavy cities, with guilds, for the wildcards
            pool = sorted(set(pool) | set(rng.sample(SCIENCE, rng.randint(3, 12)))
                          | set(rng.sample(GUILDS, rng.randint(0, 4))))
        put(game, seat, *pool)
        coins(game, seat, rng.randint(0, 20))
    while not game.over:      # the last turn, then Babylon's seventh card or Halikarnassos
        for seat in list(game.pending()):
            actions = game.legal_actions(seat)
            game.apply(seat, ([a for a in actions if str(a).startswith("discard")]
                              or actions)[0])
    return game


def test_scores_agree_on_rich_random_cities() -> None:
    audit = Audit()
    for seed in range(150):
        _check_scores(ended_game(seed), audit, f"seed {seed}")
    assert audit.findings == []


@pytest.mark.long
def test_scores_agree_on_many_rich_random_cities() -> None:
    audit = Audit()
    for seed in range(150, 2150):
        _check_scores(ended_game(seed), audit, f"seed {seed}")
    assert audit.findings == []


@pytest.mark.parametrize(("symbols", "wildcards", "points"), [
    ((2, 1, 3), 0, 21),        # RO L471-481: 3 tablets, 2 compasses, 1 gear = 14 + 7
    ((2, 2, 3), 0, 31),        # RO L483-487: one more gear
    ((5, 0, 0), 0, 25),        # RO L464-465: 5 identical = 25
    ((4, 0, 0), 2, 36),        # 4 + 2 wildcards: 6 identical = 36
    ((1, 1, 0), 1, 10),        # a wildcard completes a set: 1+1+1+7
    ((3, 3, 2), 2, 55),        # 4,3,3 or 3,3,4: 16+9+9+21
])
def test_science_points_maximise_the_wildcards(symbols: tuple[int, int, int], wildcards: int,
                                               points: int) -> None:
    assert science_score(symbols, wildcards) == science_points(symbols, wildcards)[0]
    assert science_points(symbols, wildcards)[0] == points


def test_every_guild_counted_by_hand() -> None:
    # RO L1094-1148, PT L780-798: arrows count the two neighbours only; Builders counts
    # the own stages too; Shipowners counts itself; Strategists the neighbours' defeats
    game = table("gizah", "rhodos", "ephesos")
    while not (game.age == 3 and game.turn == 6):
        for seat in list(game.pending()):
            game.apply(seat, f"discard:{view(game, seat)['you']['hand'][0]}")
    put(game, 0, *GUILDS, "lumber_yard", "loom")
    put(game, 1, "lumber_yard", "stone_pit", "press", "altar", "tavern", "stockade",
        "apothecary")
    stages(game, 1, 1)
    put(game, 2, "clay_pool", "glassworks", "baths", "theater", "marketplace", "barracks",
        "guard_tower", "workshop", "scriptorium")
    stages(game, 2, 2)
    for seat in list(game.pending()):
        game.apply(seat, f"discard:{view(game, seat)['you']['hand'][0]}")
    assert game.over
    seats = view(game, None)["seats"]
    assert sorted(seats[1]["tokens"]) == [-1, 5] and sorted(seats[2]["tokens"]) == [5, 5]
    outcome = game.outcome()
    assert outcome is not None
    sheet = outcome.to_json()["sheets"][0]
    workers, craftsmen, traders, philosophers, spies = 3, 2 * 2, 2, 3, 3
    strategists, shipowners, magistrates, builders = 1, 1 + 1 + 10, 3, 0 + 1 + 2
    assert sheet["guilds"] == (workers + craftsmen + traders + philosophers + spies
                               + strategists + shipowners + magistrates + builders)
    assert sheet["science"] == 1            # the Scientists Guild's symbol alone
    assert sheet["military"] == -2
