"""What a worker process runs for the server (app/services/computer.py): plain data in,
plain data out, so that it crosses a process pool. The game arrives as its record (seed,
options, actions) and is replayed here; the bot then sees only its seat's side of it.

No clock is read here either: a decision is its level's budget of work, however long a
busy machine takes over it (docs/bots.md states each level's worst case).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import threading
from typing import Any

from app.engine import OUT_OF_TURN, Game, from_json, replay_json

from . import decide, evaluate

OUT_OF_TURN_TYPES = frozenset(kind.TYPE for kind in OUT_OF_TURN)

Record = tuple[int, dict[str, Any], list[dict[str, Any]]]
"""A game as it crosses to a worker: its seed, its options and its actions (JSON)."""


def record_of(game: Game) -> Record:
    return game.seed, game.options.to_json(), [action.to_json() for action in game.log]


def start_worker(niceness: int = 10) -> None:
    """A worker's setting up (the pool's initializer): it yields the processor to the
    server's own process (players' moves first) by ``niceness``, and ends once that
    process is gone."""
    with contextlib.suppress(OSError):  # not allowed here: the same priority, then
        os.nice(niceness)
    server = multiprocessing.parent_process()
    if server is not None:
        threading.Thread(target=_end_with_the_server, args=(server.sentinel,), daemon=True,
                         name="server-watch").start()


def _end_with_the_server(sentinel: int) -> None:
    # A server killed outright (kill -9, an out-of-memory kill) cannot shut its pool down,
    # and a worker waiting for work never hears that it is gone: the pool's queue is a pipe
    # every worker holds both ends of. The server's sentinel (a pipe it held since it
    # spawned the worker, even one killed while the worker was still starting) says it.
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def think(record: Record, seat: int, level: str, bot_seed: int) -> dict[str, Any]:
    """The computer's action for ``seat`` in the game so far, as JSON."""
    game = replay_json(*record)
    return decide(game, seat, level, bot_seed).to_json()


def chosen_versions(record: Record) -> list[int]:
    """The positions of a game an analysis reads: before each action that its seat chose
    in turn (not a resignation or a take-back, which any seat may make at any time)."""
    return [version for version, action in enumerate(record[2])
            if action["type"] not in OUT_OF_TURN_TYPES]


def analyse_position(record: Record, version: int, iterations: int, bot_seed: int
                     ) -> dict[str, Any] | None:
    """The top search's reading of the position before action ``version`` of a game: the
    seat to act there, its chance of winning, the action the search prefers, the action
    played and the same search's chance after it (None if the search did not try it).
    None where no move was chosen (the game over, or the action a resignation or a
    take-back, which any seat may make at any time)."""
    seed, options, actions = record
    game = replay_json(seed, options, actions[:version])
    seat = game.to_act
    played = from_json(actions[version])
    if seat is None or played.TYPE in OUT_OF_TURN_TYPES:
        return None
    found = evaluate(game, iterations, bot_seed)
    played_chance = found.chances.get(played)
    return {"version": version, "seat": seat, "chance": round(found.win_chance, 3),
            "best": str(found.action), "played": str(played),
            "played_chance": None if played_chance is None else round(played_chance, 3)}


def analyse(record: Record, iterations: int, bot_seed: int) -> list[dict[str, Any]]:
    """:func:`analyse_position` for every position of a finished game where a move was
    chosen, one after the other in this process (the server spreads them over its cores)."""
    readings = (analyse_position(record, version, iterations, bot_seed)
                for version in chosen_versions(record))
    return [reading for reading in readings if reading is not None]
