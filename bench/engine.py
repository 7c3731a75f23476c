"""Engine speed: plays N seeded random games (each legal action equally likely) on one core.

    python bench/engine.py --games 2000

Prints games/s and actions/s. A figure, not a test: it never fails on speed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine import Game


def play(seeds: range) -> int:
    """Play one game per seed; returns the number of actions applied."""
    actions = 0
    for seed in seeds:
        game = Game.new(seed)
        choose = random.Random(seed).choice
        legal = game.legal_actions
        apply = game.apply
        while not game.is_over:
            apply(choose(legal()))
            actions += 1
    return actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="report the best of N runs")
    args = parser.parse_args()
    seeds = range(args.first_seed, args.first_seed + args.games)
    play(range(50))  # warm up
    best = float("inf")
    actions = 0
    for _ in range(args.repeat):
        start = time.perf_counter()
        actions = play(seeds)
        best = min(best, time.perf_counter() - start)
    print(f"{args.games} games, {actions} actions, best of {args.repeat}: {best:.3f} s")
    print(f"{args.games / best:,.0f} games/s   {actions / best:,.0f} actions/s   "
          f"({actions / args.games:.1f} actions per game, Python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
