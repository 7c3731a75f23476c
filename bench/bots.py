"""The computer's levels measured against each other: a round-robin tournament.

    python bench/bots.py                       # every pair of levels, 20 games each
    python bench/bots.py --games 40 --jobs 2   # more games, two processes
    python bench/bots.py --levels greedy easy  # some levels only
    python bench/bots.py --levels hard hard:depth=12:kinds=uniform   # a variant of a level

Each pair of levels plays ``--games`` games: each seeded deal twice, seats swapped, so
neither level gets the luckier deal or the first move more often. Budgets are in
iterations (no time limit), so a run gives the same games on any machine. Prints each
pair's score, the Elo of each level (maximum likelihood, random anchored at 0) with a 95 %
interval from resampling the games, each level's decision time, and how the games were
won. Figures, not a test.

A variant plays a search level's budget with other playouts: ``LEVEL:key=value:...``, with
``depth=N`` (stop each playout after N actions and let the heuristic judge; the levels play
to the end), ``kinds=B,W,D`` (the weights of building, building a wonder and discarding in
a playout) or ``kinds=uniform`` (every action as likely), and ``iterations=N``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the app, here and in the pool's processes
    sys.path.insert(0, str(ROOT))

Result = tuple[str, str, float, str, float, float, int, int]
"""(level of seat 0, level of seat 1, seat 0's score, victory kind, seconds thinking of
seat 0 and of seat 1, decisions of seat 0 and of seat 1)."""


def variant(spec: str) -> tuple[str, dict[str, object]]:
    """A level and the search's arguments a variant changes (see above); ValueError if the
    spec is not one."""
    from app.bots import LEVELS

    name, *changes = spec.split(":")
    if name not in LEVELS:
        raise ValueError(f"unknown level {name!r}: {', '.join(LEVELS)}")
    if changes and LEVELS[name].kind != "search":
        raise ValueError(f"{name} does not search: it has no variants")
    arguments: dict[str, object] = {}
    for change in changes:
        key, _, value = change.partition("=")
        if key in ("depth", "iterations") and value.isdigit():
            arguments[key] = int(value)
        elif key == "kinds" and value == "uniform":
            arguments[key] = None
        elif key == "kinds" and len(value.split(",")) == 3 and value.replace(",", "").isdigit():
            arguments[key] = tuple(int(weight) for weight in value.split(","))
        else:
            raise ValueError(f"not a change of a search: {change!r}")
    return name, arguments


def decide_as(player: tuple[str, dict[str, object]], game: Any, seat: int, seed: int) -> Any:
    """The move of a level, or of a variant of one (a :func:`variant`)."""
    from app.bots import LEVELS, bot_rng, decide, search

    name, arguments = player
    if not arguments:
        return decide(game, seat, name, seed)
    changed = dict(arguments)
    iterations = changed.pop("iterations", LEVELS[name].iterations)
    return search(game, seat, iterations, bot_rng(seed, game), **changed).action


def play(levels: tuple[str, str], deal: int) -> Result:
    """One game between two levels on a seeded deal."""
    from app.engine import Game, Options

    players = [variant(spec) for spec in levels]
    game = Game.new(deal, Options())
    thinking = [0.0, 0.0]
    decisions = [0, 0]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        began = time.perf_counter()
        action = decide_as(players[seat], game, seat, deal * 2 + seat)
        thinking[seat] += time.perf_counter() - began
        decisions[seat] += 1
        game.apply(action, seat=seat)
    outcome = game.outcome()
    assert outcome is not None
    score = 0.5 if outcome.winner is None else float(outcome.winner == 0)
    return (levels[0], levels[1], score, outcome.victory.value, thinking[0], thinking[1],
            decisions[0], decisions[1])


def elo(games: list[tuple[str, str, float]], levels: list[str], anchor: str) -> dict[str, float]:
    """Maximum-likelihood Elo ratings (Bradley-Terry on a 400-point logistic scale) from
    (a, b, a's score) games, ``anchor`` at 0. Minorisation-maximisation (Hunter 2004):
    each step sets a level's strength to its wins over its expected-win weights. Each
    level also drew one virtual game against a player of rating 0, which keeps a level
    that never lost (or never won) finite."""
    wins: dict[str, float] = defaultdict(float)
    meetings: dict[tuple[str, str], int] = Counter()
    for a, b, score in games:
        wins[a] += score
        wins[b] += 1 - score
        meetings[a, b] += 1
        meetings[b, a] += 1
    strength = dict.fromkeys(levels, 1.0)
    for _ in range(2000):
        changed = 0.0
        for level in levels:
            weight = sum(count / (strength[level] + strength[other])
                         for (one, other), count in meetings.items() if one == level)
            new = (wins[level] + 0.5) / (weight + 1.0 / (strength[level] + 1.0))
            changed = max(changed, abs(math.log(new / strength[level])))
            strength[level] = new
        if changed < 1e-9:
            break
    base = strength[anchor]
    return {level: 400 * math.log10(strength[level] / base) for level in levels}


def main() -> None:
    from app.bots import LEVELS

    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games per pair (even)")
    parser.add_argument("--levels", nargs="*", default=list(LEVELS))
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--first-deal", type=int, default=1000)
    parser.add_argument("--resamples", type=int, default=300)
    args = parser.parse_args()
    try:
        bases = {spec: list(LEVELS).index(variant(spec)[0]) for spec in args.levels}
    except ValueError as error:
        parser.error(str(error))
    levels = sorted(dict.fromkeys(args.levels), key=lambda spec: bases[spec])  # weakest first
    deals = range(args.first_deal, args.first_deal + (args.games + 1) // 2)
    schedule = [(seats, deal) for a, b in itertools.combinations(levels, 2) for deal in deals
                for seats in ((a, b), (b, a))]
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, *zip(*schedule, strict=True)))
    wall = time.perf_counter() - began
    print(f"{len(results)} games, {args.games} per pair, levels {', '.join(levels)}; "
          f"{wall:.0f} s on {args.jobs} processes\n")

    # Each pair's score, from the stronger level's side.
    games = [(r[0], r[1], r[2]) for r in results]
    named = max(len(level) for level in levels) + 2  # the width of a level's name
    paired = 2 * named + 2
    print(f"{'pair':<{paired}}{'score':>10}{'wins':>8}{'losses':>8}{'shared':>8}   victories")
    for a, b in itertools.combinations(levels, 2):
        mine = [(s if x == a else 1 - s, kind) for x, y, s, kind, *_ in results
                if {x, y} == {a, b}]
        points = sum(s for s, _ in mine)
        kinds = Counter(kind for _, kind in mine)
        print(f"{b + ' v ' + a:<{paired}}{(len(mine) - points) / len(mine):>9.0%} "
              f"{sum(s == 0 for s, _ in mine):>7}{sum(s == 1 for s, _ in mine):>8}"
              f"{sum(s == 0.5 for s, _ in mine):>8}   "
              + ", ".join(f"{kind} {count}" for kind, count in kinds.most_common()))

    anchor = levels[0]
    rating = elo(games, levels, anchor)
    chooser = random.Random(0)
    samples: dict[str, list[float]] = defaultdict(list)
    by_pair: dict[frozenset[str], list[tuple[str, str, float]]] = defaultdict(list)
    for game in games:
        by_pair[frozenset(game[:2])].append(game)
    for _ in range(args.resamples):  # resampled within each pair: the schedule stays
        drawn = [chooser.choice(pair) for pair in by_pair.values() for _ in pair]
        for level, value in elo(drawn, levels, anchor).items():
            samples[level].append(value)
    thinking: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for r in results:
        for seat in (0, 1):
            thinking[r[seat]][0] += r[4 + seat]
            thinking[r[seat]][1] += r[6 + seat]
    print(f"\n{'level':<{named}}{'Elo':>8}{'95 % interval':>20}{'ms/decision':>14}")
    for level in levels:
        low, high = (sorted(samples[level])[int(q * (args.resamples - 1))]
                     for q in (0.025, 0.975))
        seconds, count = thinking[level]
        print(f"{level:<{named}}{rating[level]:>8.0f}{f'{low:.0f} .. {high:.0f}':>20}"
              f"{1000 * seconds / max(count, 1):>14.1f}")
    steps = [rating[b] - rating[a] for a, b in itertools.pairwise(levels)]
    print("\nsteps between levels: " + ", ".join(
        f"{b} - {a} = {step:.0f}" for (a, b), step in zip(itertools.pairwise(levels), steps,
                                                          strict=True)))
    kinds = Counter(r[3] for r in results)
    print("victories: " + ", ".join(f"{kind} {count / len(results):.0%}"
                                    for kind, count in kinds.most_common()))


if __name__ == "__main__":
    main()
