"""Classic engine speed beside Duel's: seeded random games on one core, in one run.

    taskset -c 1 .venv/bin/python bench/classic.py            # 3 rounds, interleaved
    taskset -c 1 .venv/bin/python bench/classic.py --rounds 5 --games 40

Random games: one game per seed, every seat choosing uniformly among its legal actions
(the seat that still owes a choice with the lowest number goes first: the order changes
nothing). Classic games of 3, 5 and 7 players (sides drawn at random) through the checked
``apply`` and through the trusted ``play``; Duel's random games through ``apply`` and
``play`` the same way (what bench/engine.py measures). Playouts: random games to the end
from clones of positions at the start of Age II (5 players). The measures run interleaved
(Duel, 3, 5, 7, playouts, Duel, ...) for ``--rounds`` rounds, each measure of each round on
new seeds (the prices memo is kept for the process, as a server's is; a seed played again
would find its prices memoised); the medians are printed with the ratio of each to Duel's
games/s. Figures, not tests: nothing fails on speed.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def duel_games(seeds: range, *, fast: bool) -> list[str]:
    from app.engine import Game

    hashes = []
    for seed in seeds:
        game = Game.new(seed)
        uniform = random.Random(seed).random
        step = game.play if fast else game.apply
        while not game.is_over:
            choices = game.legal_actions()
            step(choices[int(uniform() * len(choices))])
        hashes.append(game.state_hash())
    return hashes


def classic_games(seeds: range, players: int, *, fast: bool) -> list[str]:
    from app.classic import Game, Options

    hashes = []
    for seed in seeds:
        game = Game.new(seed, Options(players=players, sides="random"))
        uniform = random.Random(seed).random
        step = game.play if fast else game.apply
        while not game.over:
            pending = game.pending()
            seat = min(pending) if pending else game.interrupt
            choices = game.legal_actions(seat)
            step(seat, choices[int(uniform() * len(choices))])
        hashes.append(game.state_hash())
    return hashes


def age_two_starts(count: int, players: int) -> list[Any]:
    from app.classic import Game, Options

    starts = []
    for seed in range(count):
        game = Game.new(10_000 + seed, Options(players=players, sides="random"))
        uniform = random.Random(seed).random
        while game.age < 2:
            seat = min(game.pending()) if game.pending() else game.interrupt
            choices = game.legal_actions(seat)
            game.play(seat, choices[int(uniform() * len(choices))])
        starts.append(game)
    return starts


def playouts(starts: list[Any], per_start: int) -> int:
    done = 0
    for index, start in enumerate(starts):
        uniform = random.Random(index).random
        for _ in range(per_start):
            game = start.clone()
            while not game.over:
                pending = game.pending()
                seat = min(pending) if pending else game.interrupt
                choices = game.legal_actions(seat)
                game.play(seat, choices[int(uniform() * len(choices))])
            done += 1
    return done


def _rate(run: Callable[[], int]) -> float:
    began = time.perf_counter()
    count = run()
    return count / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=30, help="games per measure")
    args = parser.parse_args()
    games = args.games
    # The same games either way: the trusted path must play exactly what apply plays.
    for players in (3, 5, 7):
        assert classic_games(range(5), players, fast=True) == \
            classic_games(range(5), players, fast=False)
    starts = age_two_starts(10, 5)
    measures: dict[str, Callable[[range], int]] = {
        "duel apply": lambda seeds: len(duel_games(seeds, fast=False)),
        "duel play": lambda seeds: len(duel_games(seeds, fast=True)),
    }
    for players in (3, 5, 7):
        measures[f"classic {players}p apply"] = (
            lambda seeds, p=players: len(classic_games(seeds, p, fast=False)))  # type: ignore[misc]
        measures[f"classic {players}p play"] = (
            lambda seeds, p=players: len(classic_games(seeds, p, fast=True)))  # type: ignore[misc]
    measures["classic 5p playouts from Age II"] = \
        lambda seeds: playouts(starts, max(1, games // 10))
    for run in measures.values():  # warm up
        run(range(games))
    rates: dict[str, list[float]] = {name: [] for name in measures}
    for round_ in range(args.rounds):
        for index, (name, run) in enumerate(measures.items()):
            # New seeds for every measure and round: a seed played again would find all
            # its prices memoised (the memo is kept for the process, as a server's is).
            first = 1_000_000 * (round_ + 1) + 10_000 * index
            seeds = range(first, first + games)
            rates[name].append(_rate(lambda run=run, seeds=seeds: run(seeds)))  # type: ignore[misc]
    duel = statistics.median(rates["duel play"])
    duel_apply = statistics.median(rates["duel apply"])
    digest = hashlib.sha256("".join(classic_games(range(20), 5, fast=True)).encode())
    print(f"median of {args.rounds} interleaved rounds, {games} games a measure "
          f"(classic 5p digest {digest.hexdigest()[:12]})")
    print(f"{'measure':34} {'per s':>9} {'/ duel':>7}")
    for name, values in rates.items():
        median = statistics.median(values)
        against = duel_apply if name.endswith("apply") else duel
        unit = "playouts" if "playouts" in name else "games"
        print(f"{name:34} {median:9.1f} {median / against:7.2f}  {unit}")


if __name__ == "__main__":
    main()
