"""The classic game's computer players measured: a seeded tournament, and time per decision.

    python bench/classic_bots.py                                  # the two matches below
    python bench/classic_bots.py --games 200 --jobs 2             # more games, two processes
    python bench/classic_bots.py --match easy:greedy --players 5  # another match
    taskset -c 1 python bench/classic_bots.py --table 7          # a step's wait, 7 players

A match ``HERO:FIELD`` seats one ``HERO`` bot among ``FIELD`` bots (4 players unless
``--players``). Each seeded deal is played once with the hero at each seat (seats rotated),
so no seat and no deal favours it; a game counts as a win when the hero places first (a
shared first place counts as a share). Prints the hero's win rate with a 95 % interval
(Wilson), parity (1 / players), and each level's processor time per decision (p50, p95,
worst), each worker process pinned to one core. ``--table N`` plays seeded games of N bots
of each search level and prints how long a step keeps a person waiting while the other N-1
seats' bots decide one after another on one core (the worst case: no second core).

Budgets are rollouts, never time: a run plays the same games on any machine.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

Result = tuple[float, list[float], list[float]]
"""(the hero's share of first place, its decision times, the field's decision times)."""


def _pin(core: int | None) -> None:
    if core is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})


def play(hero: str, field: str, players: int, deal: int, seat: int,  # noqa: PLR0917
         sides: str) -> Result:
    """One game: ``hero`` at ``seat``, ``field`` elsewhere, on the seeded deal."""
    from app.classic import Game, Options
    from app.classic.bots import decide

    game = Game.new(deal, Options(players=players, sides=sides))
    mine: list[float] = []
    theirs: list[float] = []
    while not game.over:
        for who in sorted(game.pending()):
            level = hero if who == seat else field
            started = time.process_time()
            action = decide(game, who, level, seed=deal * 10 + who)
            (mine if who == seat else theirs).append(time.process_time() - started)
            game.apply(who, action)
    result = game.outcome()
    assert result is not None
    first = [s for s, place in enumerate(result.places) if place == 1]
    return (1 / len(first) if seat in first else 0.0), mine, theirs


def _worker(cores: Any) -> None:
    """A worker process pins itself to the next core of the queue."""
    _pin(cores.get())


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a rate."""
    if games == 0:
        return 0.0, 1.0
    z = 1.96
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) \
        / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def match(spec: str, games: int, players: int, sides: str,
          pool: ProcessPoolExecutor | None) -> dict[str, list[float]]:
    hero, field = spec.split(":")
    tasks = [(hero, field, players, 1000 + index // players, index % players, sides)
             for index in range(games)]
    started = time.perf_counter()
    if pool is None:
        results = [play(*task) for task in tasks]
    else:
        results = list(pool.map(play, *zip(*tasks, strict=True)))
    wins = sum(r[0] for r in results)
    low, high = wilson(wins, len(results))
    print(f"{hero} alone against {players - 1} {field}: {wins:g} wins of {len(results)} = "
          f"{100 * wins / len(results):.1f} % (95 % interval {100 * low:.1f}..{100 * high:.1f} "
          f"%, parity {100 / players:.1f} %) in {time.perf_counter() - started:.0f} s")
    times: dict[str, list[float]] = {hero: [], field: []}
    for _, mine, theirs in results:
        times[hero] += mine
        times[field] += theirs
    return times


def table(players: int, levels: list[str], games: int) -> None:
    """How long a step waits for ``players - 1`` bots deciding in turn on one core."""
    from app.classic import Game, Options
    from app.classic.bots import decide

    print(f"\nA person at a table of {players}, the {players - 1} other seats bots deciding "
          "one after another on one core: the wait per step")
    print("| level | steps | p50 | p95 | worst |")
    print("|---|---|---|---|---|")
    for level in levels:
        waits: list[float] = []
        for deal in range(games):
            game = Game.new(2000 + deal, Options(players=players, sides="random"))
            while not game.over:
                pending = sorted(game.pending())
                wait = 0.0
                for who in pending:
                    started = time.process_time()
                    action = decide(game, who, level, seed=deal * 10 + who)
                    if who != 0:  # seat 0 is the person: the others' time is its wait
                        wait += time.process_time() - started
                    game.apply(who, action)
                if len(pending) > 1:
                    waits.append(wait)
        print(f"| `{level}` | {len(waits)} | {_ms(percentile(waits, 0.5))} | "
              f"{_ms(percentile(waits, 0.95))} | {_ms(max(waits))} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--match", nargs="*", default=["greedy:random", "hard:greedy"])
    parser.add_argument("--games", type=int, default=100, help="games per match")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sides", default="random")
    parser.add_argument("--jobs", type=int, default=1, help="processes, each on one core")
    parser.add_argument("--table", type=int, default=0,
                        help="also time a step at a table of this many bots")
    parser.add_argument("--table-games", type=int, default=2)
    parser.add_argument("--table-levels", nargs="*", default=["easy", "medium", "hard"])
    args = parser.parse_args()

    pool = None
    if args.jobs > 1:
        cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        queue: Any = multiprocessing.Queue()
        for index in range(args.jobs):
            queue.put(cores[index % len(cores)] if cores else None)
        pool = ProcessPoolExecutor(args.jobs, initializer=_worker, initargs=(queue,))
    times: dict[str, list[float]] = {}
    for spec in args.match:
        for level, spent in match(spec, args.games, args.players, args.sides,
                                  pool).items():
            times.setdefault(level, []).extend(spent)
    if times:
        print(f"\nProcessor time per decision ({args.players} players, one core per process)")
        print("| level | decisions | p50 | p95 | worst |")
        print("|---|---|---|---|---|")
        for level, spent in times.items():
            print(f"| `{level}` | {len(spent)} | {_ms(percentile(spent, 0.5))} | "
                  f"{_ms(percentile(spent, 0.95))} | {_ms(max(spent))} |")
    if pool is not None:
        pool.shutdown()
    if args.table:
        table(args.table, args.table_levels, args.table_games)


if __name__ == "__main__":
    main()
