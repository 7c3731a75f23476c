"""The end of the game: each seat's score sheet and the ranking (RO L382-500, PT L333-397).

Science wildcards (Babylon, the Scientists Guild) and Olympia B's copied guild are chosen
here, to maximise the seat's own score (RO L705, L1143; PT L570, L613); nobody else's score
depends on them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import effects
from .cards import CARDS, SYMBOLS
from .state import City


def science_points(symbols: Sequence[int], wildcards: int = 0) -> tuple[int, tuple[int, ...]]:
    """The best science score of ``symbols`` (compass, gear, tablet counts) with
    ``wildcards`` symbols of free choice, and the symbols chosen for them: each symbol
    counted squared, plus 7 a set of three different (RO L446-487)."""
    best = -1
    chosen: tuple[int, ...] = ()
    for choice in itertools.combinations_with_replacement(range(3), wildcards):
        counts = list(symbols)
        for symbol in choice:
            counts[symbol] += 1
        score = sum(c * c for c in counts) + 7 * min(counts)
        if score > best:
            best, chosen = score, choice
    return best, chosen


@dataclass(frozen=True)
class ScoreSheet:
    """One seat's points by category, in the rulebook's order (RO L393-400)."""

    seat: int
    military: int
    treasury: int
    wonder: int
    civilian: int
    science: int
    commerce: int
    guilds: int
    coins: int
    wildcards: tuple[str, ...]
    copied_guild: str | None

    @property
    def total(self) -> int:
        return self.military + self.treasury + self.wonder + self.civilian + self.science \
            + self.commerce + self.guilds

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "military": self.military, "treasury": self.treasury,
                "wonder": self.wonder, "civilian": self.civilian, "science": self.science,
                "commerce": self.commerce, "guilds": self.guilds, "total": self.total,
                "coins": self.coins, "wildcards": list(self.wildcards),
                "copied_guild": self.copied_guild}


@dataclass(frozen=True)
class Outcome:
    """Score sheets by seat, and each seat's place: 1 + the seats with more points, or as
    many points and more coins; equal points and coins share a place (RO L387-388, PT
    L333-334)."""

    sheets: tuple[ScoreSheet, ...]
    places: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    def to_json(self) -> dict[str, Any]:
        return {"sheets": [sheet.to_json() for sheet in self.sheets],
                "places": list(self.places)}


def _guild_points(city: City, neighbours: Sequence[City], copied: int) -> int:
    extra = 1 if copied >= 0 else 0
    cards = [index for index in city.cards if CARDS[index].guild]
    if copied >= 0:
        cards.append(copied)
    return sum(effects.points(CARDS[index].effects, city, neighbours, extra) for index in cards)


def sheet(seat: int, city: City, neighbours: Sequence[City]) -> ScoreSheet:
    """``seat``'s score sheet, its city final and its neighbours' too."""
    wonder = sum(stage.effects.points for stage in city.stages[:city.built])
    civilian = commerce = 0
    for index in city.cards:
        card = CARDS[index]
        if card.color == "blue":
            civilian += card.effects.points
        elif card.color == "yellow":
            commerce += effects.points(card.effects, city, neighbours)
    # Olympia B: the best guild to copy (or none), with the science it may bring.
    candidates = [-1]
    if city.copy_guild:
        candidates += sorted({index for neighbour in neighbours for index in neighbour.cards
                              if CARDS[index].guild and CARDS[index].id not in city.names})
    best: tuple[int, int, int, tuple[int, ...]] | None = None
    for copied in candidates:
        wildcards = city.wildcards + (
            1 if copied >= 0 and CARDS[copied].effects.science_choice else 0)
        science, chosen = science_points(city.science, wildcards)
        guilds = _guild_points(city, neighbours, copied)
        if best is None or science + guilds > best[0] + best[1]:
            best = (science, guilds, copied, chosen)
    assert best is not None
    science, guilds, copied, chosen = best
    return ScoreSheet(seat=seat, military=sum(city.tokens), treasury=city.coins // 3,
                      wonder=wonder, civilian=civilian, science=science, commerce=commerce,
                      guilds=guilds, coins=city.coins,
                      wildcards=tuple(SYMBOLS[s] for s in chosen),
                      copied_guild=None if copied < 0 else CARDS[copied].id)


def outcome(cities: Sequence[City]) -> Outcome:
    count = len(cities)
    sheets = tuple(sheet(seat, city, (cities[(seat + 1) % count], cities[(seat - 1) % count]))
                   for seat, city in enumerate(cities))
    keys = [(s.total, s.coins) for s in sheets]
    places = tuple(1 + sum(1 for other in keys if other > key) for key in keys)
    return Outcome(sheets, places)
