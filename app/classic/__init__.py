"""The rules engine of 7 Wonders (first edition, 2010) for 3 to 7 players: pure,
deterministic, no I/O. See ``docs/classic-engine.md``; the rulings are in
``docs/classic-rules.md``.

    game = Game.new(seed, Options(players=5, sides="random"))
    game.pending()                        # seat -> decision, for the seats still to choose
    game.legal_actions(seat)              # every legal action of that seat now
    events = game.apply(seat, action)     # illegal -> IllegalActionError, game unchanged
    view(game, seat)                      # what a seat (or None: a spectator) may see
    Game.replay(seed, options, game.log)  # same seed, options and log -> same state_hash()
"""

from .actions import (
    ACTION_TYPES,
    DECISIONS,
    DISCARD_BUILD,
    PICK,
    SEVENTH,
    Action,
    Build,
    BuildDiscarded,
    BuildFree,
    BuildStage,
    Discard,
    from_json,
    parse,
)
from .cards import BOARD_BY_ID, BOARDS, CARD_BY_ID, CARDS
from .errors import ILLEGAL_CODES, EngineError, IllegalActionError, MalformedActionError
from .events import Event, events_for
from .game import ENGINE_VERSION, Game, Plan
from .scoring import Outcome, ScoreSheet, science_points
from .state import Options
from .trade import Market, exhaustive_splits, splits
from .views import knowledge, view

__all__ = [
    "ACTION_TYPES", "BOARDS", "BOARD_BY_ID", "CARDS", "CARD_BY_ID", "DECISIONS",
    "DISCARD_BUILD", "ENGINE_VERSION", "ILLEGAL_CODES", "PICK", "SEVENTH", "Action", "Build",
    "BuildDiscarded", "BuildFree", "BuildStage", "Discard", "EngineError", "Event", "Game",
    "IllegalActionError", "MalformedActionError", "Market", "Options", "Outcome", "Plan",
    "ScoreSheet", "events_for", "exhaustive_splits", "from_json", "knowledge", "parse",
    "science_points", "splits", "view",
]
