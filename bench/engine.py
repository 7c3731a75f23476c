"""Engine speed: plays N seeded random games (each legal action equally likely) on one core.

    python bench/engine.py --games 2000              # the engine as it runs in the server
    python bench/engine.py --games 2000 --compiled   # also the mypyc-compiled engine

Prints games/s and actions/s, and a digest of every game's final state hash: the compiled
engine must produce exactly the same games; then playouts/s from the start of Age II, what
a search does: a random game to its end from a copy of the position (``Game.clone``), and
for comparison from the position rebuilt by replaying its log (what a copy cost before
``clone``). Figures, not tests: they never fail on speed.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def play(seeds: range, keep: list[object] | None = None) -> int:
    """Play one game per seed; returns the number of actions. Finished games are kept in
    ``keep`` when given (not while timing: a growing heap slows the garbage collector)."""
    from app.engine import Game

    actions = 0
    for seed in seeds:
        game = Game.new(seed)
        uniform = random.Random(seed).random
        legal = game.legal_actions
        apply = game.apply
        while not game.is_over:
            choices = legal()
            apply(choices[int(uniform() * len(choices))])  # uniform to within 2**-53
            actions += 1
        if keep is not None:
            keep.append(game)
    return actions


def measure(games: int, first_seed: int, repeat: int) -> None:
    import app.engine.game as engine

    seeds = range(first_seed, first_seed + games)
    play(range(50))  # warm up
    best = float("inf")
    actions = 0
    for _ in range(repeat):
        start = time.perf_counter()
        actions = play(seeds)
        best = min(best, time.perf_counter() - start)
    finished: list[object] = []
    play(seeds, keep=finished)
    hashes = "".join(game.state_hash() for game in finished)  # type: ignore[attr-defined]
    digest = hashlib.sha256(hashes.encode()).hexdigest()
    kind = "compiled (mypyc)" if engine.__file__.endswith((".so", ".pyd")) else "pure Python"
    print(f"{kind:>17}: {games / best:>7,.0f} games/s  {actions / best:>9,.0f} actions/s  "
          f"({games} games, {actions / games:.1f} actions each, best of {repeat}: "
          f"{best:.3f} s; results {digest[:12]})")


def age_two_starts(count: int, first_seed: int) -> list[object]:
    """Positions at the start of Age II, from seeded random games."""
    from app.engine import Game

    starts: list[object] = []
    seed = first_seed
    while len(starts) < count:
        game = Game.new(seed)
        uniform = random.Random(seed).random
        while not game.is_over and game.state.age < 2:
            choices = game.legal_actions()
            game.apply(choices[int(uniform() * len(choices))])
        if not game.is_over:
            starts.append(game)
        seed += 1
    return starts


def playouts(starts: list[object], per_start: int, *, by_replay: bool) -> int:
    """``per_start`` random playouts from each start, each from a fresh copy of it: the
    number of playouts."""
    from app.engine import Game

    done = 0
    for index, start in enumerate(starts):
        assert isinstance(start, Game)
        uniform = random.Random(index).random
        for _ in range(per_start):
            game = (Game.replay(start.seed, start.options, start.log) if by_replay
                    else start.clone())
            while not game.is_over:
                choices = game.legal_actions()
                game.apply(choices[int(uniform() * len(choices))])
            done += 1
    return done


def measure_playouts(starts: int, per_start: int, repeat: int) -> None:
    import app.engine.game as engine

    kind = "compiled (mypyc)" if engine.__file__.endswith((".so", ".pyd")) else "pure Python"
    positions = age_two_starts(starts, 0)
    rates = {}
    for by_replay in (False, True, False, True):  # interleaved: the same machine's moments
        best = float("inf")
        for _ in range(repeat):
            began = time.perf_counter()
            done = playouts(positions, per_start, by_replay=by_replay)
            best = min(best, time.perf_counter() - began)
        rates[by_replay] = max(rates.get(by_replay, 0.0), done / best)
    print(f"{kind:>17}: {rates[False]:>7,.0f} playouts/s from Age II with Game.clone, "
          f"{rates[True]:,.0f} by replaying the log ({rates[False] / rates[True]:.2f}x; "
          f"{starts} starts x {per_start}, best of {repeat}, interleaved)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="report the best of N runs")
    parser.add_argument("--compiled", action="store_true",
                        help="also build and measure the mypyc-compiled engine")
    parser.add_argument("--playouts", type=int, default=20,
                        help="playouts from each of 20 Age II starts")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, one process")
    measure(args.games, args.first_seed, args.repeat)
    measure_playouts(20, args.playouts, args.repeat)
    if args.compiled:
        from compile_engine import build

        # A fresh interpreter whose "app" package is the compiled copy.
        child = (f"import sys; sys.path[:0] = [{str(build())!r}, {str(ROOT / 'bench')!r}]; "
                 f"from engine import measure, measure_playouts; "
                 f"measure({args.games}, {args.first_seed}, {args.repeat}); "
                 f"measure_playouts(20, {args.playouts}, {args.repeat})")
        subprocess.run([sys.executable, "-c", child], check=True)


if __name__ == "__main__":
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    main()
