"""Computer players of the classic game (3 to 7 players): pure functions of what their seat
may see, like the engine. See ``docs/classic-bots.md``.

    from app.classic.bots import LEVELS, decide
    action = decide(game, seat, "medium", seed=1234)   # one of game.legal_actions(seat)

``decide`` answers every decision a seat may owe: a pick (with the payment split named),
Babylon B's seventh card and Halikarnassos' build from the discard pile; the science
wildcards and Olympia B's copied guild are no decisions (the engine maximises them at the
end). A level sees the game through its seat: its hand, what it saw pass through its
hands, and what the table saw (:mod:`.history`); every other card is drawn again with the
bot's own generator (:mod:`.hidden`), from sorted lists, so two games that look the same to
the seat give the same decision. ``seed`` is the bot's, never the game's. A level is a
budget of rollouts, never of time: the same seed and budget give the same move on a quiet
machine and a busy one.

Levels, weakest first (``bench/classic_bots.py`` measures them):

- ``random``: any legal action, each as likely;
- ``greedy``: the action the heuristic (:mod:`.heuristic`) rates best, one ply;
- ``easy``, ``medium``, ``hard``: the search of :mod:`.search` with larger budgets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from app.engine.rng import Rng

from ..actions import Action
from ..game import Game
from .heuristic import best
from .hidden import Unseen, determinize
from .search import search


@dataclass(frozen=True, slots=True)
class Level:
    code: str
    kind: Literal["random", "greedy", "search"]
    rollouts: int = 0
    """A search's budget at 4 players: rollouts played to the end, all of them, however
    long it takes (:func:`budget` scales it to the table)."""
    width: int = 0
    """How many of the heuristic's favourite actions the search weighs."""


LEVELS: Final = {level.code: level for level in (
    Level("random", "random"),
    Level("greedy", "greedy"),
    Level("easy", "search", 24, 4),
    Level("medium", "search", 60, 5),
    Level("hard", "search", 120, 6),
)}
"""Every level, weakest first."""
TOP_LEVEL: Final = "hard"


def budget(level: Level, players: int) -> int:
    """The rollouts of a search level at a table of ``players``: a rollout costs about one
    seat's work per seat, and a person waits for ``players - 1`` bots, so the budget shrinks
    as ``players * (players - 1)`` grows, the work a step keeps a person waiting the same
    as at 4 players (and never less than one rollout per action weighed)."""
    return max(level.width, round(level.rollouts * 12 / (players * (players - 1))))


def bot_rng(seed: int, game: Game, seat: int) -> Rng:
    """The bot's generator for this decision: its seed, the step and the seat (public),
    never anything hidden nor the game's own generator."""
    return Rng((seed * 1_000_003 + game.step * 8 + seat) & ((1 << 64) - 1))


def decide(game: Game, seat: int, level: str, seed: int) -> Action:
    """What the bot of ``level`` plays for ``seat``: one of ``game.legal_actions(seat)``.
    ValueError if the seat has nothing to decide now."""
    rule = LEVELS[level]
    legal = game.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to decide")
    if len(legal) == 1:
        return legal[0]
    rng = bot_rng(seed, game, seat)
    if rule.kind == "random":
        return legal[rng.below(len(legal))]
    if rule.kind == "greedy":
        return best(game, seat, legal, denial=True)
    return search(game, seat, budget(rule, game.players), rule.width, rng)


__all__ = ["LEVELS", "TOP_LEVEL", "Level", "Unseen", "bot_rng", "budget", "decide",
           "determinize",
           "search"]
