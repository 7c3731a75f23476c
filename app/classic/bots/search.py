"""Search over what the seat cannot see: determinised rollouts (flat Monte Carlo).

Each round draws one arrangement of the hidden cards the seat cannot rule out
(:class:`.hidden.Unseen`), then, for each candidate action, plays the seat's action and the
rest of the game with every seat following a cheap policy (:func:`policy`: the heuristic's
best action, now and then a random one), and notes the seat's place and its margin over the
best other seat. The candidates share each round's arrangement and the policy's generator
(common random numbers), so they are compared on the same futures. The choice is the
candidate with the best mean place, then margin (:data:`MARGIN_WEIGHT`).

The candidates are the seat's legal actions, one payment per card and use (the best one by
the heuristic, which prefers the cheapest and then paying the weaker neighbour), the
``width`` the heuristic likes best. The budget is a number of rollouts, all of them played:
nothing here reads a clock.
"""

from __future__ import annotations

from typing import Final

from app.engine.rng import Rng

from ..actions import Action
from ..game import Game
from .heuristic import best, values
from .hidden import Unseen

EXPLORE: Final = 10
"""One policy decision in this many is a random legal action (rollouts must not all follow
one line)."""
MARGIN_WEIGHT: Final = 0.02
"""A point of margin over the best other seat is worth this much of a place."""


def policy(game: Game, seat: int, rng: Rng) -> Action:
    """The rollouts' move for ``seat``: the heuristic's best action (without weighing what
    the hand gives the next seat), a random one once in :data:`EXPLORE`."""
    legal = game.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    if rng.below(EXPLORE) == 0:
        return legal[rng.below(len(legal))]
    return best(game, seat, legal, denial=False)


def playout(game: Game, rng: Rng) -> None:
    """Every seat follows :func:`policy` to the end of the game."""
    while not game.over:
        for seat in sorted(game.pending()):
            game.play(seat, policy(game, seat, rng))


def candidates(game: Game, seat: int, width: int) -> list[Action]:
    """The ``width`` actions the heuristic likes best, one payment per card and use."""
    legal = game.legal_actions(seat)
    scores = values(game, seat, legal, denial=True)
    kept: dict[tuple[str, str], tuple[float, int]] = {}
    for i, (action, score) in enumerate(zip(legal, scores, strict=True)):
        key = (action.TYPE, action.card)
        if key not in kept or score > kept[key][0]:
            kept[key] = (score, i)
    ranked = sorted(kept.values(), key=lambda item: (-item[0], item[1]))
    return [legal[i] for _, i in ranked[:width]]


def search(game: Game, seat: int, rollouts: int, width: int, rng: Rng) -> Action:
    """The action ``seat`` should take after ``rollouts`` rollouts (at least one round)."""
    options = candidates(game, seat, width)
    if len(options) == 1:
        return options[0]
    unseen = Unseen(game, seat)
    places = [0.0] * len(options)
    margins = [0.0] * len(options)
    rounds = max(1, rollouts // len(options))
    for _ in range(rounds):
        world = unseen.sample(game, rng)
        future = rng.next_u32() | rng.next_u32() << 32
        for i, action in enumerate(options):
            trial = world.clone()
            trial.play(seat, action)
            playout(trial, Rng(future))
            result = trial.outcome()
            assert result is not None
            totals = [sheet.total for sheet in result.sheets]
            mine = totals.pop(seat)
            places[i] += result.places[seat]
            margins[i] += max(-30, min(30, mine - max(totals)))
    worth = [-place + MARGIN_WEIGHT * margin for place, margin in zip(places, margins,
                                                                        strict=True)]
    top = max(range(len(options)), key=worth.__getitem__)
    return options[top]
