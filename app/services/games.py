"""Game use cases: create, join, read, and submit an action.

The service is built in parts, each a module: ``live`` (the lock and replay of each game,
reading; its docstring says how the log, the replays and the doorbell fit together),
``moves``, ``seating`` and ``offers``, which ``GameService`` brings together.
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
