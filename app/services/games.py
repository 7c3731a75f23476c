"""Game use cases: create, join, read, and submit an action.

The database is the truth: a game is rebuilt by replaying its log, and the replay is kept
in memory only as a cache that catches up with the log before every use. Actions of one
game are applied one at a time (a lock per game in this process; between processes, the
game's row written only at the version before, in the statement that logs the action),
and an action is committed before anyone is told of it.

Every action this process's replay takes in, its own or one another process committed,
is handed to the ``watch`` listeners (the sockets' hub), in order, once committed: each
process tells its own sockets from its own replay. A commit rings the other processes'
doorbell (``{"moved": version, ...}`` on the game's topic, with the move): they take the
move in (``take``), or catch up with the log (``sync``).

The service is built in parts, each a module: ``live`` (the lock and replay of each game,
reading), ``moves``, ``seating`` and ``offers``, which ``GameService`` brings together.
"""

from __future__ import annotations

from .errors import ServiceError
from .offers import Offers
from .replays import (
    SEED_BITS,
    Accepted,
    Applied,
    Created,
    Credentials,
    computer_name,
    fresh_seed,
    game_not_found,
    new_game_row,
    rated_needs_account,
)
from .seating import Seating

__all__ = ["SEED_BITS", "Accepted", "Applied", "Created", "Credentials", "GameService",
           "ServiceError", "computer_name", "fresh_seed", "game_not_found", "new_game_row",
           "rated_needs_account"]


class GameService(Offers, Seating):
    """Game use cases: create, join, read, and act (app/services/games.py's docstring)."""
