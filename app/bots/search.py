"""Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse,
2012): one tree over the acting seat's information, each iteration played in a fresh
determinisation of what the seat cannot see (:func:`app.bots.hidden.determinize`).

An iteration walks down the tree choosing among the actions legal in its determinisation
(UCB1, counting how often each action was available rather than how often its parent was
visited), adds one node, plays the game on at random to its end (or for a set number of
actions, then asks the heuristic for a chance of winning) and backs the result up the
walk. The random playouts build more than they discard (:data:`PLAYOUT_KINDS`): real
games do.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, NamedTuple

from app.engine import Action, Game
from app.engine.rng import Rng

from .heuristic import win_chance
from .hidden import determinize

EXPLORATION: Final = 0.7
"""UCB1's constant, for rewards in 0..1."""
PLAYOUT_KINDS: Final = (6, 3, 1)
"""How a playout weighs building a card, building a wonder and discarding (``Game.playout``):
random games that look more like real ones. docs/bots.md has the games that chose these."""


class _Node:
    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        """The seat whose action led here: the rewards below are that seat's."""
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 1


_NOTHING_TRIED: Mapping[Action, float] = MappingProxyType({})


class Searched(NamedTuple):
    action: Action
    """The action tried most often: the search's choice."""
    win_chance: float
    """The searching seat's chance of winning after it, as the playouts found it."""
    iterations: int
    chances: Mapping[Action, float] = _NOTHING_TRIED
    """The same chance after each action the search tried (none when it took a win at
    once): the analysis weighs the move played against the choice in one search, from one
    seat's view."""


def _playout(game: Game, seat: int, rng: Rng, depth: int | None,
             kinds: tuple[int, int, int] | None) -> float:
    """Random actions to the end (or for at most ``depth`` actions), then ``seat``'s reward,
    0..1: the result if the game ended, otherwise the heuristic's chance."""
    game.playout(rng, (1 << 30) if depth is None else depth, kinds)
    return win_chance(game.state, seat)


def _winning_action(world: Game, seat: int) -> Action | None:
    """The first legal action after which ``seat`` has won (the end of a game depends on
    public facts only: any determinisation tells)."""
    for action in world.legal_actions():
        after = world.clone()
        after.play(action)
        if after.is_over and after.state.winner == seat:
            return action
    return None


def search(game: Game, seat: int, iterations: int, rng: Rng, *, depth: int | None = None,
           kinds: tuple[int, int, int] | None = PLAYOUT_KINDS) -> Searched:
    """The action ``seat`` (to act in ``game``) should take, after ``iterations`` iterations,
    all of them: nothing here reads a clock. The same game as the seat sees it, the same
    generator state and the same number of iterations give the same answer.

    Playouts go to the end of the game, weighed by ``kinds`` (None: every action as
    likely); with ``depth``, they stop after that many actions and the heuristic judges.
    The levels use the defaults; ``bench/bots.py`` measures the others against them.

    An action that wins at once is played without a search: when every playout is won
    anyway, the tree cannot tell it from any other, and a player expects the win taken."""
    assert game.to_act == seat, "the searching seat must be the one to act"
    winning = _winning_action(determinize(game, seat, rng), seat)
    if winning is not None:
        return Searched(winning, 1.0, 0)
    root = _Node(1 - seat)
    for _ in range(iterations):
        world = determinize(game, seat, rng)
        node = root
        walk = [root]
        while not world.is_over:
            mover = world.to_act
            assert mover is not None
            legal = world.legal_actions()
            children = node.children
            untried = [action for action in legal if action not in children]
            if untried:
                for action in legal:
                    if action in children:
                        children[action].available += 1
                action = untried[rng.below(len(untried))]
                child = children[action] = _Node(mover)
                world.play(action)
                walk.append(child)
                break
            best: _Node | None = None
            best_action = legal[0]
            best_value = -1.0
            for action in legal:
                child = children[action]
                child.available += 1
                value = child.total / child.visits + EXPLORATION * math.sqrt(
                    math.log(child.available) / child.visits)
                if value > best_value:
                    best, best_action, best_value = child, action, value
            assert best is not None
            world.play(best_action)
            node = best
            walk.append(node)
        reward = _playout(world, 0, rng, depth, kinds)  # seat 0's
        for visited in walk:
            visited.visits += 1
            visited.total += reward if visited.mover == 0 else 1.0 - reward
    chosen, child = max(root.children.items(), key=lambda item: item[1].visits)
    return Searched(chosen, child.total / child.visits, iterations,
                    {action: tried.total / tried.visits
                     for action, tried in root.children.items() if tried.visits})
