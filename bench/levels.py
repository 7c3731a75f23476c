"""Each computer level's time per decision on one core, the worst case and the 95th
percentile, over seeded positions from the draft to Age III.

    taskset -c 1 python bench/levels.py                    # 60 positions per level
    taskset -c 1 python bench/levels.py --positions 200 --levels hard
    taskset -c 1 python bench/levels.py --compiled         # the engine built by mypyc

A level is a budget of work (docs/bots.md), so its decisions take as long as that work
takes: this measures how long. Run it pinned to one core (``taskset``): a decision runs
in one worker process. Both clocks are printed: the processor time of this process (the
work itself, what a quiet core would take) and the wall time (what it took on this
machine as busy as it was). Positions are seeded random games stopped after 0 to 70
actions, the same for every level; the analysis of a position is the top level's search.
Figures, not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.engine import Game

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def positions(count: int, first_seed: int) -> list[Game]:
    """Seeded random games, each stopped after a seeded number of actions (not over)."""
    from app.engine import Game, Options

    found: list[Game] = []
    seed = first_seed
    while len(found) < count:
        chooser = random.Random(seed)
        game = Game.new(seed, Options())
        stop = chooser.randrange(0, 71)
        while not game.is_over and len(game.log) < stop:
            game.apply(chooser.choice(game.legal_actions()))
        if not game.is_over:
            found.append(game)
        seed += 1
    return found


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=60, help="positions per level")
    parser.add_argument("--levels", nargs="*", default=None, help="default: every level")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--compiled", action="store_true",
                        help="the engine compiled by mypyc (bench/compile_engine.py)")
    args = parser.parse_args()
    if args.compiled:
        sys.path.insert(0, str(ROOT / "bench"))
        from compile_engine import build

        sys.path.insert(0, str(build()))

    from app.bots import LEVELS, decide
    from app.engine import rng

    levels = args.levels or list(LEVELS)
    unknown = [level for level in levels if level not in LEVELS]
    if unknown:
        parser.error(f"unknown level(s) {', '.join(unknown)}: {', '.join(LEVELS)}")
    games = positions(args.positions, args.first_seed)
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    print(f"{len(games)} positions per level; engine {'compiled' if rng.COMPILED else 'pure'}; "
          f"cores allowed: {cores or 'unknown'}\n")
    print(f"{'level':<8}{'budget':>8}   {'processor time, ms':^26}   {'wall time, ms':^26}")
    print(f"{'':<16}   {'mean':>8}{'p95':>9}{'max':>9}   {'mean':>8}{'p95':>9}{'max':>9}")
    for level in levels:
        cpu: list[float] = []
        wall: list[float] = []
        for number, game in enumerate(games):
            seat = game.to_act
            assert seat is not None
            began_cpu, began_wall = time.process_time(), time.perf_counter()
            decide(game, seat, level, seed=number)
            cpu.append(1000 * (time.process_time() - began_cpu))
            wall.append(1000 * (time.perf_counter() - began_wall))
        budget = LEVELS[level].iterations or "-"
        print(f"{level:<8}{budget:>8}   "
              + "".join(f"{statistics.fmean(v):>8.1f}{percentile(v, 0.95):>9.1f}{max(v):>9.1f}"
                        + ("   " if v is cpu else "") for v in (cpu, wall)), flush=True)


if __name__ == "__main__":
    main()
