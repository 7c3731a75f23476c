"""The cards and boards of 7 Wonders (first edition), read once from ``data/classic.toml``.

Each effect table is compiled into an :class:`Effects` record (plain integers and masks)
that the one interpreter, :mod:`app.classic.effects`, reads. Resources are indices 0..6 in
:data:`RESOURCES` order; a set of resources is a bit mask.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

RESOURCES: Final = ("wood", "clay", "stone", "ore", "glass", "textile", "papyrus")
RAW: Final = frozenset(range(4))
"""Raw materials (brown cards): wood, clay, stone, ore; the others are manufactured goods."""
SYMBOLS: Final = ("compass", "gear", "tablet")
COLORS: Final = ("brown", "grey", "blue", "green", "yellow", "red", "purple")
COUNTABLE: Final = (*COLORS, "wonder_stage", "defeat_token")
"""What ``coins_per`` and ``points_per`` may count: a colour, wonder stages, defeat tokens."""
SCOPES: Final = ("self", "neighbours", "self+neighbours")
BOARD_FLAGS: Final = ("free_build_once_per_age", "build_from_discard", "play_seventh_card",
                      "copy_neighbour_guild", "science_choice")
NO_COST: Final = (0, 0, 0, 0, 0, 0, 0)


def resource_mask(names: list[str]) -> int:
    mask = 0
    for name in names:
        mask |= 1 << RESOURCES.index(name)
    return mask


@dataclass(frozen=True)
class Counting:
    """``coins_per`` / ``points_per``: ``each`` per item of ``kinds`` found in ``scope``."""

    kinds: tuple[str, ...]
    each: int
    scope: str

    @property
    def self_too(self) -> bool:
        return self.scope in ("self", "self+neighbours")

    @property
    def neighbours(self) -> bool:
        return self.scope in ("neighbours", "self+neighbours")


@dataclass(frozen=True)
class Effects:
    """One card's or stage's effects, compiled from its TOML table."""

    produce: tuple[int, ...] = NO_COST
    either: int = 0
    """Mask of a two-resource brown card: one of them a turn, neighbours may buy either."""
    choice: int = 0
    """Mask of a private choice (Forum, Caravansery, Alexandria): the owner's alone."""
    discounts: tuple[tuple[str, str], ...] = ()
    """(goods, side): ``raw`` or ``manufactured`` bought from ``left``/``right``/``both``."""
    shields: int = 0
    points: int = 0
    coins: int = 0
    science: int = -1
    science_choice: bool = False
    coins_per: Counting | None = None
    points_per: Counting | None = None
    flags: frozenset[str] = field(default_factory=frozenset)

    @property
    def trades(self) -> bool:
        """Whether these effects change what a city produces or pays for purchases."""
        return bool(any(self.produce) or self.either or self.choice or self.discounts)


@dataclass(frozen=True)
class Card:
    """A card row: one name in one age deck, with the player counts of its copies."""

    index: int
    id: str
    name: str
    age: int
    """1, 2 or 3 (guilds: 3)."""
    guild: bool
    color: str
    copies: tuple[int, ...]
    coins: int
    cost: tuple[int, ...]
    chain_from: tuple[str, ...]
    effects: Effects
    cost_index: int
    """The index of ``cost`` in :data:`COSTS` (prices are memoised by it)."""


@dataclass(frozen=True)
class Stage:
    board: str
    side: str
    number: int
    cost: tuple[int, ...]
    effects: Effects
    cost_index: int


@dataclass(frozen=True)
class Board:
    index: int
    id: str
    name: str
    resource: int
    sides: dict[str, tuple[Stage, ...]]


def _counting(table: dict[str, Any] | None) -> Counting | None:
    if table is None:
        return None
    kinds = tuple(table["count"])
    if not set(kinds) <= set(COUNTABLE) or table["scope"] not in SCOPES:
        raise ValueError(f"bad counting {table}")
    return Counting(kinds, int(table["each"]), table["scope"])


_KNOWN_EFFECTS: Final = {"produce", "produce_either", "produce_choice", "trade_discount",
                         "shields", "points", "coins", "science", "coins_per", "points_per",
                         *BOARD_FLAGS}


def compile_effects(table: dict[str, Any]) -> Effects:
    """An effect table of the TOML file as an :class:`Effects` record."""
    unknown = set(table) - _KNOWN_EFFECTS
    if unknown:
        raise ValueError(f"unknown effects {sorted(unknown)}")
    produce = [0] * 7
    for name, count in table.get("produce", {}).items():
        produce[RESOURCES.index(name)] += int(count)
    discounts: tuple[tuple[str, str], ...] = ()
    if "trade_discount" in table:
        discount = table["trade_discount"]
        discounts = ((discount["goods"], discount["side"]),)
    science = SYMBOLS.index(table["science"]) if "science" in table else -1
    return Effects(
        produce=tuple(produce),
        either=resource_mask(table.get("produce_either", [])),
        choice=resource_mask(table.get("produce_choice", [])),
        discounts=discounts, shields=int(table.get("shields", 0)),
        points=int(table.get("points", 0)), coins=int(table.get("coins", 0)),
        science=science, science_choice=bool(table.get("science_choice", False)),
        coins_per=_counting(table.get("coins_per")), points_per=_counting(table.get("points_per")),
        flags=frozenset(name for name in BOARD_FLAGS if table.get(name) is True
                        and name != "science_choice"))


def _cost(table: dict[str, Any]) -> tuple[int, tuple[int, ...]]:
    resources = [0] * 7
    for name, count in table.items():
        if name != "coins":
            resources[RESOURCES.index(name)] = int(count)
    return int(table.get("coins", 0)), tuple(resources)


COSTS: list[tuple[int, ...]] = []
"""Every resource cost met so far, each once (those of the data file first)."""
_COST_INDEX: dict[tuple[int, ...], int] = {}


def cost_index(cost: tuple[int, ...]) -> int:
    """The index of ``cost`` in :data:`COSTS` (added when new)."""
    index = _COST_INDEX.get(cost)
    if index is None:
        index = _COST_INDEX[cost] = len(COSTS)
        COSTS.append(cost)
    return index


def load(path: Path) -> tuple[tuple[Card, ...], tuple[Board, ...]]:
    """The cards and boards of a data file."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    cards = []
    for index, row in enumerate(data["card"]):
        coins, cost = _cost(row["cost"])
        guild = row["age"] == "guild"
        cards.append(Card(index=index, id=row["id"], name=row["name"],
                          age=3 if guild else int(row["age"]), guild=guild, color=row["color"],
                          copies=tuple(row["copies"]), coins=coins, cost=cost,
                          chain_from=tuple(row.get("chain_from", ())),
                          effects=compile_effects(row["effects"]),
                          cost_index=cost_index(cost)))
    boards = []
    for index, row in enumerate(data["board"]):
        sides: dict[str, tuple[Stage, ...]] = {}
        for side in ("A", "B"):
            stages = []
            for number, stage in enumerate(row[side.lower()], start=1):
                coins, cost = _cost(stage["cost"])
                if coins:
                    raise ValueError("wonder stages cost resources only")
                stages.append(Stage(row["id"], side, number, cost,
                                    compile_effects(stage["effects"]), cost_index(cost)))
            sides[side] = tuple(stages)
        boards.append(Board(index, row["id"], row["name"], RESOURCES.index(row["resource"]),
                            sides))
    return tuple(cards), tuple(boards)


DATA_FILE: Final = Path(__file__).with_name("data") / "classic.toml"
CARDS, BOARDS = load(DATA_FILE)
CARD_IDS: Final = frozenset(card.id for card in CARDS)
"""Card ids (Loom, Glassworks and Press have a row in Age I and in Age II: one id, one
structure)."""
CARD_BY_ID: Final = {card.id: card for card in CARDS}
"""A card of each id (of the two rows of Loom, Glassworks, Press: the Age I one; they differ
only in their deck)."""
BOARD_BY_ID: Final = {board.id: board for board in BOARDS}
GUILDS: Final = tuple(card.index for card in CARDS if card.guild)


def deck(age: int, players: int) -> list[int]:
    """The card indices of an age's deck for ``players`` (no guilds), one per copy."""
    return [card.index for card in CARDS if card.age == age and not card.guild
            for copy in card.copies if copy <= players]
