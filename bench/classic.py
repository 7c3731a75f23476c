"""Classic engine speed beside Duel's: seeded random games on one core, in one run.

    taskset -c 1 .venv/bin/python bench/classic.py             # 3 rounds, interleaved
    taskset -c 1 .venv/bin/python bench/classic.py --compiled  # and the mypyc build
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
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))  # after PYTHONPATH, where a compiled build may come first


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
    """Items per second of this process's CPU time: on a shared machine the time other
    processes take the core is not counted against either engine."""
    began = time.process_time()
    count = run()
    return count / (time.process_time() - began)


def child(games: int, round_: int) -> dict[str, Any]:
    """One round of every measure in this process (its build of the classic engine); the
    rates, whether the engine is compiled, and a digest of the games played."""
    import app.classic.game as engine

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
        run(range(min(games, 10)))
    rates: dict[str, float] = {}
    for index, (name, run) in enumerate(measures.items()):
        # New seeds for every measure and round: a seed played again would find all its
        # prices memoised (the memo is kept for the process, as a server's is).
        first = 1_000_000 * (round_ + 1) + 10_000 * index
        seeds = range(first, first + games)
        rates[name] = _rate(lambda run=run, seeds=seeds: run(seeds))  # type: ignore[misc]
    digest = hashlib.sha256("".join(classic_games(range(20), 5, fast=True)).encode())
    return {"rates": rates, "compiled": not engine.__file__.endswith(".py"),
            "digest": digest.hexdigest()[:12]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=30, help="games per measure")
    parser.add_argument("--compiled", action="store_true",
                        help="also the classic engine compiled with mypyc")
    parser.add_argument("--child", type=int, default=-1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child >= 0:
        print(json.dumps(child(args.games, args.child)))
        return
    # The same games either way: the trusted path must play exactly what apply plays.
    for players in (3, 5, 7):
        assert classic_games(range(5), players, fast=True) == \
            classic_games(range(5), players, fast=False)
    builds = {"pure": None}
    if args.compiled:
        sys.path.insert(0, str(ROOT / "bench"))
        from compile_classic import build
        builds["compiled"] = str(build())
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in builds}
    for round_ in range(args.rounds):
        for name, path in builds.items():  # interleaved: pure, compiled, pure, ...
            env = dict(os.environ)
            if path is not None:
                env["PYTHONPATH"] = path
            out = subprocess.run([sys.executable, __file__, "--child", str(round_),
                                  "--games", str(args.games)], env=env, check=True,
                                 capture_output=True, text=True).stdout
            results[name].append(json.loads(out))
    duel = statistics.median(r["rates"]["duel play"] for rs in results.values() for r in rs)
    duel_apply = statistics.median(r["rates"]["duel apply"]
                                   for rs in results.values() for r in rs)
    print(f"median of {args.rounds} interleaved rounds, {args.games} games a measure, new "
          f"seeds each; ratios to Duel's pure engine in the same run")
    for name, rounds in results.items():
        digests = {r["digest"] for r in rounds}
        print(f"\nclassic engine {name} (compiled: {rounds[0]['compiled']}; digest of 20 "
              f"games {', '.join(sorted(digests))})")
        print(f"{'measure':34} {'per s':>9} {'/ duel':>7}")
        for measure in rounds[0]["rates"]:
            if measure.startswith("duel") and name != "pure":
                continue
            median = statistics.median(r["rates"][measure] for r in rounds)
            against = duel_apply if measure.endswith("apply") else duel
            unit = "playouts" if "playouts" in measure else "games"
            print(f"{measure:34} {median:9.1f} {median / against:7.2f}  {unit}")
    if args.compiled:
        print("\ncompiled / pure:")
        for measure in results["pure"][0]["rates"]:
            if measure.startswith("classic"):
                pure = statistics.median(r["rates"][measure] for r in results["pure"])
                fast = statistics.median(r["rates"][measure] for r in results["compiled"])
                print(f"{measure:34} {fast / pure:9.2f}")


if __name__ == "__main__":
    main()
