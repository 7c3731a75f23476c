"""Engine speed: seeded random games and playouts on one core, alone or side by side with
an earlier revision of the engine.

    taskset -c 1 python bench/engine.py                                 # the working tree
    taskset -c 1 python bench/engine.py --compiled                      # and its mypyc build
    taskset -c 1 python bench/engine.py --against 4d5135f --compiled    # side by side

Random games: one game per seed, each legal action equally likely (the same seeds and
choices for every engine), played with the checked ``apply`` and again with ``Game.play``
(the search fast path) where the engine has it. Playouts: random games to their end from
copies of 20 positions at the start of Age II: the copy made by ``Game.replay(seed,
options, log)`` and each step ``apply`` (what every revision has), and as a search does,
``clone`` and ``play``, where the engine has them; and, where the engine has
``Game.playout`` (a playout in the engine's own loop, choices drawn from the engine's
generator), as many playouts through it. Random games once more with the choices drawn by
the engine's own generator (``Rng(seed).below``, the same in every revision), through
``Game.playout`` where the engine has it and through a loop of ``apply`` where it does
not: the same games, timed with no interpreted step between two actions in a compiled
engine that has ``playout``.

``--against REV`` checks REV's ``app/engine`` out into a temporary directory (``git
archive``), builds it with mypyc too under ``--compiled``, and runs every engine in its own
child process, interleaved (old, new, old, new, ...) for ``--rounds`` rounds; it prints the
median rates and the ratios new/old, like with like only (``apply`` against ``apply``,
``play`` against ``play``: a way the old engine lacks is said, not compared with another
way). Every engine also prints a digest of the final state
hashes of its games and of its playouts: equal digests show the same rules played the same
games. Figures, not tests: nothing fails on speed. Pin the run to one core (``taskset``);
on a shared machine only the ratios of one interleaved run mean much.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
STARTS = 20
"""Age II positions the playouts start from."""


# ----------------------------------------------------------------------------- in the child

def random_games(seeds: range, *, fast: bool, keep: list[Any] | None = None) -> int:
    """Play one game per seed; returns the number of actions. With ``fast`` each action
    goes through ``Game.play``, else through ``Game.apply``. Finished games are kept in
    ``keep`` when given (not while timing: a growing heap slows the garbage collector)."""
    from app.engine import Game

    actions = 0
    for seed in seeds:
        game = Game.new(seed)
        uniform = random.Random(seed).random
        legal = game.legal_actions
        step = game.play if fast else game.apply
        while not game.is_over:
            choices = legal()
            step(choices[int(uniform() * len(choices))])  # uniform to within 2**-53
            actions += 1
        if keep is not None:
            keep.append(game)
    return actions


def engine_games(seeds: range, keep: list[Any] | None = None, *, playout: bool = True
                 ) -> None:
    """One game per seed again, each choice drawn with the engine's own generator
    (``Rng(seed).below``, the same sequence in every revision): through ``Game.playout``
    where the engine has it and ``playout`` asks for it, otherwise by this loop and
    ``apply``. The same games either way, so the digests are compared."""
    from app.engine import Game
    from app.engine.rng import Rng

    for seed in seeds:
        game = Game.new(seed)
        rng = Rng(seed)
        if playout and hasattr(game, "playout"):
            game.playout(rng)
        else:
            while not game.is_over:
                choices = game.legal_actions()
                game.apply(choices[rng.below(len(choices))])
        if keep is not None:
            keep.append(game)


def age_two_starts(count: int) -> list[Any]:
    """Positions at the start of Age II, from seeded random games (played with ``apply``,
    which every revision has)."""
    from app.engine import Game

    starts: list[Any] = []
    seed = 0
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


def playouts(starts: list[Any], per_start: int, keep: list[Any] | None = None, *,
             searchable: bool = True) -> int:
    """``per_start`` random playouts from each start, each from a fresh copy of it; returns
    the number of playouts. The copy is ``clone`` and each step ``play`` where the engine
    has them and ``searchable`` asks for them, else ``Game.replay`` and ``apply`` (what
    every revision has)."""
    from app.engine import Game

    searchable = searchable and hasattr(Game, "clone") and hasattr(Game, "play")
    done = 0
    for index, start in enumerate(starts):
        uniform = random.Random(index).random
        for _ in range(per_start):
            if searchable:
                game = start.clone()
                step = game.play
            else:
                game = Game.replay(start.seed, start.options, start.log)
                step = game.apply
            legal = game.legal_actions
            while not game.is_over:
                choices = legal()
                step(choices[int(uniform() * len(choices))])
            if keep is not None:
                keep.append(game)
            done += 1
    return done


def engine_playouts(starts: list[Any], per_start: int) -> int:
    """The same number of playouts through ``Game.playout``: the engine's own loop, its
    choices drawn from the engine's generator (other games than :func:`playouts`', so no
    digest is compared)."""
    from app.engine.rng import Rng

    done = 0
    for index, start in enumerate(starts):
        rng = Rng(index)
        for _ in range(per_start):
            start.clone().playout(rng)
            done += 1
    return done


def _digest(games: list[Any]) -> str:
    return hashlib.sha256("".join(g.state_hash() for g in games).encode()).hexdigest()[:12]


def _timed(run: Any) -> tuple[float, int]:
    began = time.perf_counter()
    count = run()
    return time.perf_counter() - began, count


def measure(games: int, per_start: int, digests: bool) -> dict[str, Any]:
    """Time this process's engine once; the rates (and the digests, with ``digests``)."""
    import app.engine.game as engine
    from app.engine import Game

    seeds = range(games)
    has_play = hasattr(Game, "play")
    random_games(range(games, games + 50), fast=has_play)  # warm up
    out: dict[str, Any] = {
        "compiled": not engine.__file__.endswith(".py"), "has_play": has_play,
        "searchable": has_play and hasattr(Game, "clone"),
        "has_playout": hasattr(Game, "playout"),
    }
    if has_play:
        seconds, actions = _timed(lambda: random_games(seeds, fast=True))
        out["play_games"] = games / seconds
        out["actions"] = actions / seconds
    seconds, actions = _timed(lambda: random_games(seeds, fast=False))
    out["apply_games"] = games / seconds
    out.setdefault("actions", actions / seconds)
    seconds, _ = _timed(lambda: engine_games(seeds, playout=False) or 0)
    out["loop_games"] = games / seconds
    if out["has_playout"]:
        seconds, _ = _timed(lambda: engine_games(seeds) or 0)
        out["playout_games"] = games / seconds
    starts = age_two_starts(STARTS)
    seconds, done = _timed(lambda: playouts(starts, per_start, searchable=False))
    out["replay_playouts"] = done / seconds
    if out["searchable"]:
        seconds, done = _timed(lambda: playouts(starts, per_start))
        out["clone_playouts"] = done / seconds
    if hasattr(Game, "playout"):
        seconds, done = _timed(lambda: engine_playouts(starts, per_start))
        out["engine_playouts"] = done / seconds
    if digests:
        kept: list[Any] = []
        random_games(seeds, fast=False, keep=kept)
        out["digest_apply"] = _digest(kept)
        if has_play:
            kept = []
            random_games(seeds, fast=True, keep=kept)
        out["digest"] = _digest(kept)
        kept = []
        playouts(starts, per_start, keep=kept)
        out["digest_playouts"] = _digest(kept)
        kept = []
        engine_games(seeds, keep=kept)
        out["digest_loop"] = _digest(kept)
    return out


# ----------------------------------------------------------------------------- the parent

def check_out(revision: str, into: Path) -> Path:
    """``revision``'s ``app/__init__.py`` and ``app/engine`` under ``into``; returns the
    engine's directory."""
    archive = subprocess.run(["git", "archive", "--format=tar", revision, "app/__init__.py",
                              "app/engine"], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "app" / "engine"


def run_child(path: Path, games: int, per_start: int, digests: bool) -> dict[str, Any]:
    """Measure the engine whose ``app`` package is in ``path``, in a fresh interpreter."""
    code = (f"import json, sys; sys.path[:0] = [{str(path)!r}, {str(BENCH)!r}]; "
            f"from engine import measure; "
            f"print(json.dumps(measure({games}, {per_start}, {digests})))")
    child = subprocess.run([sys.executable, "-c", code], cwd=path, check=True,
                           capture_output=True, text=True)
    result: dict[str, Any] = json.loads(child.stdout.strip().splitlines()[-1])
    return result


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _ratio(new: float | None, old: float | None) -> str:
    return "" if new is None or old is None else f"{new / old:.2f}x"


def report(build: str, runs: dict[str, list[dict[str, Any]]], old: str | None) -> list[str]:
    """The median rates of one build (pure or compiled) and, side by side with an older
    engine, the ratios new/old of the same way of playing only: ``apply`` against
    ``apply``, ``play`` against ``play``, never one against the other."""
    def median(label: str, key: str) -> float | None:
        values = [run[key] for run in runs.get(label, []) if key in run]
        return statistics.median(values) if values else None

    lines = [f"{build}:"]
    if old is None:
        lines.append(f"  random games/s  {_rate(median('new', 'play_games'))} (play), "
                     f"{_rate(median('new', 'apply_games'))} (apply); with the engine's "
                     f"generator {_rate(median('new', 'playout_games'))} (playout), "
                     f"{_rate(median('new', 'loop_games'))} (apply); "
                     f"{_rate(median('new', 'actions'))} actions/s")
        lines.append(f"  playouts/s from Age II  {_rate(median('new', 'clone_playouts'))} "
                     f"(clone + play), {_rate(median('new', 'replay_playouts'))} "
                     f"(replay + apply), {_rate(median('new', 'engine_playouts'))} "
                     f"(clone + playout)")
        return lines

    def side_by_side(what: str, key: str) -> str:
        new_rate, old_rate = median("new", key), median("old", key)
        if old_rate is None:
            return (f"  {what}  new {_rate(new_rate)}; the old engine has no such way "
                    f"(nothing to compare)")
        return (f"  {what}  old {_rate(old_rate)} | new {_rate(new_rate)} "
                f"{_ratio(new_rate, old_rate)}")

    lines.append(side_by_side("random games/s, apply against apply", "apply_games"))
    lines.append(side_by_side("random games/s, play against play", "play_games"))
    lines.append(side_by_side("random games/s by the engine's generator, apply against apply",
                              "loop_games"))
    lines.append(side_by_side("random games/s by the engine's generator, playout against "
                              "playout", "playout_games"))
    lines.append(side_by_side("playouts/s from Age II, replay + apply against replay + apply",
                              "replay_playouts"))
    lines.append(side_by_side("playouts/s from Age II, clone + play against clone + play",
                              "clone_playouts"))
    new_loop = median("new", "engine_playouts")
    if new_loop is not None:
        lines.append(side_by_side("playouts/s from Age II, clone + playout against the same",
                                  "engine_playouts"))
    return lines


def digests_line(results: dict[str, dict[str, Any]]) -> str:
    """Every engine's digests of its final state hashes, grouped: one digest for the games
    and one for the playouts mean that every engine played exactly the same games."""
    games: dict[str, list[str]] = {}
    playouts: dict[str, list[str]] = {}
    loops: dict[str, list[str]] = {}
    for label, run in results.items():
        loops.setdefault(run["digest_loop"], []).append(label)
        games.setdefault(run["digest_apply"], []).append(f"{label} apply")
        if run["has_play"]:
            games.setdefault(run["digest"], []).append(f"{label} play")
        playouts.setdefault(run["digest_playouts"], []).append(label)

    def grouped(digests: dict[str, list[str]]) -> str:
        if len(digests) == 1:
            (digest, runs), = digests.items()
            return f"{digest} ({len(runs)} runs)"
        return "; ".join(f"{digest} ({', '.join(runs)})" for digest, runs in digests.items())

    same = len(games) == 1 and len(playouts) == 1 and len(loops) == 1
    return (f"final state digests: games {grouped(games)}, games by the engine's generator "
            f"{grouped(loops)}, playouts {grouped(playouts)}: "
            + ("the same games" if same else "DIFFERENT: the engines do not play the same games"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="random games per run")
    parser.add_argument("--playouts", type=int, default=20,
                        help=f"playouts from each of {STARTS} Age II starts")
    parser.add_argument("--rounds", type=int, default=5,
                        help="runs of each engine, interleaved; the median is shown")
    parser.add_argument("--compiled", action="store_true",
                        help="also build and measure the mypyc-compiled engine(s)")
    parser.add_argument("--against", metavar="REV",
                        help="an earlier revision (commit, tag, branch) to run side by side")
    args = parser.parse_args()
    from compile_engine import build

    with tempfile.TemporaryDirectory(prefix="engine-bench-") as scratch:
        builds: dict[str, dict[str, Path]] = {"pure Python": {"new": ROOT}}
        if args.against:
            old_source = check_out(args.against, Path(scratch) / "old")
            builds["pure Python"]["old"] = old_source.parents[1]
        if args.compiled:
            builds["compiled (mypyc)"] = {"new": build()}
            if args.against:
                builds["compiled (mypyc)"]["old"] = build(old_source, Path(scratch) / "mypyc")
        labels = ["old", "new"] if args.against else ["new"]
        print(f"Python {sys.version.split()[0]}; "
              + (f"old = {args.against}, new = the working tree; " if args.against else "")
              + f"{args.games} games, {STARTS} Age II starts x {args.playouts} playouts; "
              f"median of {args.rounds} rounds, each engine in its own process, interleaved",
              flush=True)
        runs: dict[str, dict[str, list[dict[str, Any]]]] = {b: {} for b in builds}
        for round_ in range(args.rounds):
            for name, paths in builds.items():
                for label in labels:
                    result = run_child(paths[label], args.games, args.playouts, round_ == 0)
                    runs[name].setdefault(label, []).append(result)
        for name in builds:
            print("\n".join(report(name, runs[name], args.against)))
        print(digests_line({f"{label} {'compiled' if 'mypyc' in name else 'pure'}":
                            runs[name][label][0] for name in builds for label in labels}))


if __name__ == "__main__":
    sys.path.insert(0, str(BENCH))
    main()
