"""The rules engine of 7 Wonders Duel: pure, deterministic, no I/O.

Public API (see ``docs/engine.md``)::

    game = Game.new(seed, Options())          # set up from a seed
    game.legal_actions()                      # every legal action of the seat to act
    events = game.apply(action)               # illegal -> IllegalActionError, game unchanged
    view(game, seat)                          # what a seat (or None: a spectator) may see
    game.outcome()                            # winner, victory kind, score sheets
    game.apply(Forfeit(seat, "resigned"))     # out of turn: resigned, time or abandoned
    game.apply(TakeBack(seat))                # undo seat's last action if it revealed nothing
    Game.replay(seed, options, game.log)      # same seed + same actions -> same state_hash()

For search::

    world = game.clone()                      # an independent copy, no replay
    world.play(world.legal_actions()[i])      # unchecked: no events, same state as apply
"""

from .actions import (
    OUT_OF_TURN,
    Action,
    BuildCard,
    BuildFromDiscard,
    BuildWonder,
    ChooseProgressToken,
    ChooseStarter,
    DestroyCard,
    DiscardCard,
    Forfeit,
    PickWonder,
    TakeBack,
    from_json,
    parse,
)
from .cards import CARD_BY_ID, CARDS, TOKEN_BY_ID, TOKENS, WONDER_BY_ID, WONDERS
from .costs import Payment
from .errors import EngineError, IllegalActionError, MalformedActionError
from .events import Event, events_for, events_json
from .game import ENGINE_VERSION, Game, replay_json
from .scoring import Outcome, ScoreSheet
from .state import FORFEITS, Decision, DecisionKind, Options, Victory
from .views import card_options, legal_actions_with_costs, seat_prices, view

__all__ = [
    "CARDS", "CARD_BY_ID", "ENGINE_VERSION", "FORFEITS", "OUT_OF_TURN", "TOKENS",
    "TOKEN_BY_ID", "WONDERS", "WONDER_BY_ID", "Action", "BuildCard", "BuildFromDiscard",
    "BuildWonder", "ChooseProgressToken", "ChooseStarter", "Decision", "DecisionKind",
    "DestroyCard", "DiscardCard", "EngineError", "Event", "Forfeit", "Game",
    "IllegalActionError", "MalformedActionError", "Options", "Outcome", "Payment",
    "PickWonder", "ScoreSheet", "TakeBack", "Victory", "events_for", "events_json",
    "from_json", "legal_actions_with_costs", "card_options", "parse", "replay_json",
    "seat_prices", "view",
]
