"""Computer opponents: pure functions of what their seat may see, like the engine.

    from app.bots import LEVELS, decide
    action = decide(game, seat, "medium", seed=1234)

A bot sees the game through :func:`app.bots.hidden.determinize`: every hidden card, wonder
and draw is drawn again from public lists with the bot's own generator, so two games that
look the same to the seat get the same decision. ``seed`` is the bot's, never the game's.
A level is a budget of work, never of time: the same seed gives the same move on a quiet
machine and a busy one (no clock is read here).

Levels, weakest first (``bench/bots.py`` measures them against each other):

- ``random``: any legal action, each as likely;
- ``greedy``: the action whose position looks best at once (``heuristic.score``);
- ``easy``, ``medium``, ``hard``: the search of :mod:`app.bots.search` with more iterations.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from app.engine import Action, Game
from app.engine.rng import Rng

from .heuristic import score
from .hidden import determinize
from .search import Searched, search


@dataclass(frozen=True, slots=True)
class Level:
    code: str
    kind: Literal["random", "greedy", "search"]
    iterations: int = 0
    """A search's budget in iterations: the whole of it, however long it takes."""


LEVELS: Final = {level.code: level for level in (
    Level("random", "random"),
    Level("greedy", "greedy"),
    Level("easy", "search", 60),
    Level("medium", "search", 300),
    Level("hard", "search", 1500),
)}
"""Every level, weakest first."""
TOP_LEVEL: Final = "hard"


def bot_rng(seed: int, game: Game) -> Rng:
    """The bot's generator for this decision: its seed and the number of actions so far
    (public), never anything hidden."""
    return Rng((seed * 1_000_003 + len(game.log)) & ((1 << 64) - 1))


def greedy(game: Game, seat: int, rng: Rng) -> Action:
    """The action after which the position scores best for ``seat`` (the first such, in
    the order of ``legal_actions``)."""
    world = determinize(game, seat, rng)
    best_action: Action | None = None
    best_score = -float("inf")
    for action in world.legal_actions():
        after = world.clone()
        after.play(action)
        value = score(after.state, seat)
        if value > best_score:
            best_action, best_score = action, value
    assert best_action is not None
    return best_action


def decide(game: Game, seat: int, level: str, seed: int) -> Action:
    """What the bot of ``level`` plays for ``seat``, which must be the seat to act."""
    if game.to_act != seat:
        raise ValueError(f"seat {seat} is not to act")
    rule = LEVELS[level]
    rng = bot_rng(seed, game)
    if rule.kind == "random":
        choices = game.legal_actions()
        return choices[rng.below(len(choices))]
    if rule.kind == "greedy":
        return greedy(game, seat, rng)
    return search(game, seat, rule.iterations, rng).action


def evaluate(game: Game, iterations: int, seed: int) -> Searched:
    """The top search's view of ``game`` for the seat to act: its best action and that
    seat's chance of winning (for the analysis of a finished game's positions)."""
    seat = game.to_act
    if seat is None:
        raise ValueError("the game is over")
    return search(game, seat, iterations, bot_rng(seed, game))


__all__ = ["LEVELS", "TOP_LEVEL", "Level", "Searched", "bot_rng", "decide", "determinize",
           "evaluate", "greedy", "search"]
