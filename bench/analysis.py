"""A finished game's analysis on one worker process and on several, as the server runs it
(app/services/computer.py: read_positions over the analysis pool).

    python bench/analysis.py                      # 1 worker, then one per core
    python bench/analysis.py --workers 1 2 4 --iterations 300

The game is a seeded random one played to its end. Prints, for each number of workers,
the wall time to the last position and to the first, and checks that every run read the
same (the readings do not depend on the number of workers). Figures, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.bots.worker import Record

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


async def timed(workers: int, record: Record, iterations: int
                ) -> tuple[float, float, list[dict[str, Any]]]:
    """Seconds to the first reading and to the last, and the readings."""
    from app.services.computer import Thinkers, read_positions

    thinkers = Thinkers(1, analysis_workers=workers)
    began = time.perf_counter()
    first = 0.0
    readings: list[dict[str, Any]] = []
    try:
        async for so_far in read_positions(thinkers, record, iterations, seed=1):
            first = first or time.perf_counter() - began
            readings = so_far
    finally:
        thinkers.close()
    return first, time.perf_counter() - began, readings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, nargs="*", default=[1, os.cpu_count() or 1])
    parser.add_argument("--iterations", type=int, default=0, help="0: the top level's")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()

    from app.bots import LEVELS, TOP_LEVEL
    from app.bots.worker import chosen_versions, record_of
    from app.engine import Game, Options

    iterations = args.iterations or LEVELS[TOP_LEVEL].iterations
    game = Game.new(args.seed, Options())
    chooser = random.Random(args.seed)
    while not game.is_over:
        game.apply(chooser.choice(game.legal_actions()))
    record = record_of(game)
    print(f"a game of {len(chosen_versions(record))} positions, {iterations} iterations each; "
          f"{os.cpu_count()} cores\n")
    print(f"{'workers':>8}{'first position, s':>20}{'whole game, s':>16}")
    found = []
    for workers in args.workers:
        first, whole, readings = asyncio.run(timed(workers, record, iterations))
        found.append(readings)
        print(f"{workers:>8}{first:>20.1f}{whole:>16.1f}", flush=True)
    print("\nthe same readings on every number of workers: "
          f"{'yes' if all(r == found[0] for r in found) else 'NO'}")


if __name__ == "__main__":
    main()
