"""The one interpreter of card and stage effects (:class:`~app.classic.cards.Effects`).

:func:`add` applies what lasts (production, discounts, shields, science, powers) when a card
or stage joins a city; :func:`coins_when_built` is what it pays at once; :func:`count` and
:func:`points` are what it is worth at the end.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import COLORS, Counting, Effects
from .state import City

_COLOR_INDEX = {color: index for index, color in enumerate(COLORS)}
_PRICE_SLOTS = {("raw", "left"): (0,), ("raw", "right"): (2,), ("raw", "both"): (0, 2),
                ("manufactured", "left"): (1,), ("manufactured", "right"): (3,),
                ("manufactured", "both"): (1, 3)}


def add(city: City, effects: Effects) -> None:
    """What lasts of ``effects`` joins ``city``."""
    for resource, units in enumerate(effects.produce):
        city.produce[resource] += units
    if effects.either:
        city.either.append(effects.either)
    if effects.choice:
        city.choice.append(effects.choice)
    for goods, side in effects.discounts:
        for slot in _PRICE_SLOTS[goods, side]:
            city.prices[slot] = 1  # discounts never stack (RO L702)
    city.shields += effects.shields
    if effects.science >= 0:
        city.science[effects.science] += 1
    if effects.science_choice:
        city.wildcards += 1
    if "free_build_once_per_age" in effects.flags:
        city.free_build = True
    if "play_seventh_card" in effects.flags:
        city.seventh = True
    if "copy_neighbour_guild" in effects.flags:
        city.copy_guild = True
    if effects.trades:
        city.touch()  # after the change: the keys describe the city as it is now


def count(counting: Counting, city: City, neighbours: Sequence[City],
          extra_purple: int = 0) -> int:
    """How many items ``counting`` finds: in ``city`` (with ``extra_purple`` purple cards
    more, Olympia's copied guild) and/or its ``neighbours``."""
    total = 0
    places: list[tuple[City, int]] = []
    if counting.self_too:
        places.append((city, extra_purple))
    if counting.neighbours:
        places += [(neighbour, 0) for neighbour in neighbours]
    for place, purple in places:
        for kind in counting.kinds:
            if kind == "wonder_stage":
                total += place.built
            elif kind == "defeat_token":
                total += sum(1 for token in place.tokens if token < 0)
            else:
                total += place.colors[_COLOR_INDEX[kind]]
                if kind == "purple":
                    total += purple
    return total * counting.each


def coins_when_built(effects: Effects, city: City, neighbours: Sequence[City]) -> int:
    """The coins ``effects`` give once, counted on the cities as they are now."""
    coins = effects.coins
    if effects.coins_per is not None:
        coins += count(effects.coins_per, city, neighbours)
    return coins


def points(effects: Effects, city: City, neighbours: Sequence[City],
           extra_purple: int = 0) -> int:
    """The victory points ``effects`` are worth at the end (science apart)."""
    total = effects.points
    if effects.points_per is not None:
        total += count(effects.points_per, city, neighbours, extra_purple)
    return total
