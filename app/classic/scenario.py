"""Positions set up by hand, for tests, examples and puzzles: a table with chosen boards,
cards put straight into cities, chosen hands and coins. Not for play: a position made here
has no log that replays to it.

    >>> game = table("rhodos", "alexandria", "gizah")
    >>> put(game, 0, "lumber_yard", "stockade")
    >>> hand(game, 0, "baths", "altar")
    >>> game.cities[0].shields, [a for a in map(str, game.legal_actions(0)) if "baths" in a]
    (1, ['build:baths:0:2', 'discard:baths'])
"""

from __future__ import annotations

from . import effects
from .cards import BOARD_BY_ID, CARDS
from .game import _COLOR, Game
from .state import City, Options


def table(*boards: str, sides: str = "A", seed: int = 1) -> Game:
    """A new game with ``boards`` by seat (3 to 7), every one on side ``sides``, Age I dealt
    from ``seed``."""
    return Game.new(seed, Options(players=len(boards), sides=sides, boards=tuple(boards)))


def card_index(card_id: str, age: int | None = None) -> int:
    """The row of ``card_id`` (of ``age`` when the id has a row in two ages)."""
    rows = [card for card in CARDS if card.id == card_id]
    if not rows:
        raise KeyError(card_id)
    for card in rows:
        if age is None or card.age == age:
            return card.index
    return rows[0].index


def put(game: Game, seat: int, *card_ids: str) -> None:
    """Build ``card_ids`` in ``seat``'s city for nothing, their lasting effects included
    (no coins of "when built" effects), as if in an earlier age (they serve chains)."""
    game.legal_cache.clear()
    city = game.cities[seat]
    for card_id in card_ids:
        card = CARDS[card_index(card_id)]
        city.cards.append(card.index)
        city.names.add(card.id)
        city.chainable.add(card.id)  # as if built in an earlier age
        city.colors[_COLOR[card.color]] += 1
        effects.add(city, card.effects)


def stages(game: Game, seat: int, count: int) -> None:
    """Build the next ``count`` stages of ``seat``'s wonder for nothing (a Lumber Yard
    tucked under each)."""
    game.legal_cache.clear()
    city = game.cities[seat]
    for _ in range(count):
        stage = city.stages[city.built]
        city.built += 1
        city.tucked.append(card_index("lumber_yard"))
        effects.add(city, stage.effects)


def hand(game: Game, seat: int, *card_ids: str) -> None:
    """Replace ``seat``'s hand with ``card_ids`` (rows of the current age when there are
    two)."""
    game.legal_cache.clear()
    game.hands[seat] = sorted(card_index(card_id, game.age) for card_id in card_ids)
    game.seen[seat][-1] = (game.age, game.turn, tuple(game.hands[seat]))


def coins(game: Game, seat: int, amount: int) -> None:
    game.legal_cache.clear()
    game.cities[seat].coins = amount


def board(game: Game, seat: int, board_id: str, side: str) -> None:
    """Give ``seat`` another board (its city empty)."""
    game.legal_cache.clear()
    game.cities[seat] = City(BOARD_BY_ID[board_id].index, side)
