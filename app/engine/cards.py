"""The card database: building cards, wonders and progress tokens, loaded once from
``data/duel.toml`` and compiled into small immutable records.

Every effect in the game is described by one :class:`Effects` record; the rules apply it with
one interpreter (``app.engine.effects``), whatever carries it: a card, a wonder or a token.
Records are addressed by their position in :data:`CARDS`, :data:`WONDERS` and :data:`TOKENS`
inside the engine, and by their string ``id`` everywhere else.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from enum import IntEnum
from importlib import resources
from typing import Any, Final

RESOURCES: tuple[str, ...] = ("wood", "clay", "stone", "glass", "papyrus")
"""Resource names; a resource is its index in this tuple (0-2 raw, 3-4 manufactured)."""

SCIENCE_SYMBOLS: tuple[str, ...] = (
    "globe", "wheel", "sundial", "mortar", "plumb_line", "quill", "law",
)
"""Science symbols; ``law`` is only on the Law progress token."""


class Color(IntEnum):
    BROWN = 0
    GREY = 1
    BLUE = 2
    GREEN = 3
    YELLOW = 4
    RED = 5
    PURPLE = 6


COLOR_NAMES: tuple[str, ...] = tuple(c.name.lower() for c in Color)


class Kind(IntEnum):
    """What a per-item effect counts: a card colour, or one of the extra kinds below."""

    BROWN = 0
    GREY = 1
    BLUE = 2
    GREEN = 3
    YELLOW = 4
    RED = 5
    PURPLE = 6
    BROWN_AND_GREY = 7
    WONDER = 8
    COIN_SET_OF_3 = 9


_KIND_NAMES = {
    **{name: Kind(i) for i, name in enumerate(COLOR_NAMES)},
    "brown+grey": Kind.BROWN_AND_GREY,
    "wonder": Kind.WONDER,
    "coin_set_of_3": Kind.COIN_SET_OF_3,
}
KIND_NAMES: dict[Kind, str] = {kind: name for name, kind in _KIND_NAMES.items()}

NO_SYMBOL = -1


@dataclass(frozen=True, slots=True)
class PerItem:
    """``amount`` coins or points per item of ``kind``."""

    kind: Kind
    amount: int


@dataclass(frozen=True, slots=True)
class Effects:
    """Everything a card, wonder or progress token does. Absent effects are zero/empty."""

    produce: tuple[int, ...] = (0, 0, 0, 0, 0)
    produce_one_of: tuple[int, ...] = ()
    trade_price_one: tuple[int, ...] = ()
    shields: int = 0
    points: int = 0
    coins: int = 0
    science: int = NO_SYMBOL
    coins_per_own: PerItem | None = None
    coins_per_most: PerItem | None = None
    points_per_most: PerItem | None = None
    play_again: bool = False
    opponent_loses_coins: int = 0
    destroy_opponent_card: Color | None = None
    build_from_discard: bool = False
    progress_from_box: int = 0
    # Progress-token rules that change how later actions work.
    wonder_resource_discount: int = 0
    blue_resource_discount: int = 0
    receive_opponent_trade_coins: bool = False
    points_per_progress_token: int = 0
    extra_shields_per_red_card: int = 0
    wonders_play_again: bool = False
    coins_per_chain_build: int = 0

    # Groups of the fields above, so the interpreter skips whole groups at once.
    produces: bool = field(init=False)
    """Fixed production: what the owner has, and what the opponent pays to buy it."""
    produced: tuple[tuple[int, int], ...] = field(init=False)
    """The fixed production as (resource, units) pairs, resources with none left out."""
    changes_prices: bool = field(init=False)
    """Gaining this changes what the owner (or, with ``produces``, either city) pays."""
    gives_coins: bool = field(init=False)
    sets_standing_rules: bool = field(init=False)
    asks_decision: bool = field(init=False)

    def __post_init__(self) -> None:
        groups = {
            "produces": any(self.produce),
            "changes_prices": any(self.produce) or self.produce_one_of or self.trade_price_one
            or self.wonder_resource_discount or self.blue_resource_discount,
            "gives_coins": self.coins or self.coins_per_own or self.coins_per_most
            or self.opponent_loses_coins,
            "sets_standing_rules": self.receive_opponent_trade_coins
            or self.extra_shields_per_red_card or self.wonders_play_again
            or self.coins_per_chain_build,
            "asks_decision": self.destroy_opponent_card is not None or self.build_from_discard
            or self.progress_from_box,
        }
        for name, value in groups.items():
            object.__setattr__(self, name, bool(value))
        object.__setattr__(self, "produced", tuple((r, n) for r, n in enumerate(self.produce)
                                                   if n))


@dataclass(frozen=True, slots=True)
class Card:
    index: int
    id: str
    name: str
    age: int
    """1, 2 or 3; guilds are Age III cards with ``is_guild`` set."""
    is_guild: bool
    color: Color
    cost_coins: int
    cost: tuple[int, ...]
    """Resources needed, indexed like :data:`RESOURCES`."""
    needs: tuple[tuple[int, int], ...]
    """The same cost as (resource, units) pairs, resources with none left out."""
    chain_from: int
    """Chain symbol that makes this card free, or :data:`NO_SYMBOL`."""
    chain_to: int
    """Chain symbol this card gives its city, or :data:`NO_SYMBOL`."""
    effects: Effects


@dataclass(frozen=True, slots=True)
class Wonder:
    index: int
    id: str
    name: str
    cost_coins: int
    cost: tuple[int, ...]
    needs: tuple[tuple[int, int], ...]
    effects: Effects
    first_game_player: int | None
    """1 or 2: who gets it in the first-game variant (no draft); None if unused there."""


@dataclass(frozen=True, slots=True)
class ProgressToken:
    index: int
    id: str
    name: str
    effects: Effects


class CardDataError(ValueError):
    """The data file does not describe a valid game."""


def _resource(name: str) -> int:
    try:
        return RESOURCES.index(name)
    except ValueError:
        raise CardDataError(f"unknown resource {name!r}") from None


def _cost(table: dict[str, int]) -> tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Coins, resources by index, and resources as sparse (resource, units) pairs."""
    amounts = [0] * len(RESOURCES)
    coins = 0
    for key, value in table.items():
        if key == "coins":
            coins = value
        else:
            amounts[_resource(key)] = value
    return coins, tuple(amounts), tuple((r, n) for r, n in enumerate(amounts) if n)


def _per_item(table: dict[str, Any], unit: str) -> PerItem:
    try:
        kind = _KIND_NAMES[table["kind"]]
    except KeyError:
        raise CardDataError(f"unknown kind in {table!r}") from None
    return PerItem(kind, int(table[unit]))


def _effects(table: dict[str, Any]) -> Effects:
    fields: dict[str, Any] = {}
    for key, value in table.items():
        match key:
            case "produce":
                amounts = [0] * len(RESOURCES)
                for name, n in value.items():
                    amounts[_resource(name)] = n
                fields["produce"] = tuple(amounts)
            case "produce_one_of" | "trade_price_one":
                fields[key] = tuple(_resource(name) for name in value)
            case "science":
                if value not in SCIENCE_SYMBOLS:
                    raise CardDataError(f"unknown science symbol {value!r}")
                fields["science"] = SCIENCE_SYMBOLS.index(value)
            case "coins_per_own" | "coins_per_most":
                fields[key] = _per_item(value, "coins")
            case "points_per_most":
                fields[key] = _per_item(value, "points")
            case "destroy_opponent_card":
                fields[key] = Color[value.upper()]
            case "resource_discount":
                target = {"wonder": "wonder_resource_discount", "blue": "blue_resource_discount"}
                fields[target[value["on"]]] = int(value["count"])
            case (
                "shields" | "points" | "coins" | "opponent_loses_coins" | "progress_from_box"
                | "points_per_progress_token" | "extra_shields_per_red_card"
                | "coins_per_chain_build"
            ):
                fields[key] = int(value)
            case (
                "play_again" | "build_from_discard" | "receive_opponent_trade_coins"
                | "wonders_play_again"
            ):
                fields[key] = bool(value)
            case _:
                raise CardDataError(f"unknown effect {key!r}")
    return Effects(**fields)


_Database = tuple[tuple[Card, ...], tuple[Wonder, ...], tuple[ProgressToken, ...], tuple[str, ...]]


def _load() -> _Database:
    raw = tomllib.loads(resources.files(__package__).joinpath("data/duel.toml").read_text("utf-8"))
    symbols: list[str] = []

    def symbol(name: str | None) -> int:
        if name is None:
            return NO_SYMBOL
        if name not in symbols:
            symbols.append(name)
        return symbols.index(name)

    cards = []
    for i, entry in enumerate(raw["card"]):
        coins, cost, needs = _cost(entry["cost"])
        is_guild = entry["age"] == "guild"
        cards.append(Card(
            index=i, id=entry["id"], name=entry["name"], age=3 if is_guild else int(entry["age"]),
            is_guild=is_guild, color=Color[entry["color"].upper()], cost_coins=coins, cost=cost,
            needs=needs,
            chain_from=symbol(entry.get("chain_from")), chain_to=symbol(entry.get("chain_to")),
            effects=_effects(entry["effects"]),
        ))
    wonders = []
    for i, entry in enumerate(raw["wonder"]):
        coins, cost, needs = _cost(entry["cost"])
        wonders.append(Wonder(
            index=i, id=entry["id"], name=entry["name"], cost_coins=coins, cost=cost, needs=needs,
            effects=_effects(entry["effects"]), first_game_player=entry.get("first_game_player"),
        ))
    tokens = [
        ProgressToken(index=i, id=entry["id"], name=entry["name"],
                      effects=_effects(entry["effects"]))
        for i, entry in enumerate(raw["progress_token"])
    ]
    return tuple(cards), tuple(wonders), tuple(tokens), tuple(symbols)


_DATABASE = _load()
CARDS: Final = _DATABASE[0]
"""All 73 building cards (guilds included), in the data file's order."""
WONDERS: Final = _DATABASE[1]
TOKENS: Final = _DATABASE[2]
CHAIN_SYMBOLS: Final = _DATABASE[3]

CARD_BY_ID: Final[dict[str, Card]] = {card.id: card for card in CARDS}
WONDER_BY_ID: Final[dict[str, Wonder]] = {wonder.id: wonder for wonder in WONDERS}
TOKEN_BY_ID: Final[dict[str, ProgressToken]] = {token.id: token for token in TOKENS}


def _check_choice_sets_laminar() -> None:
    # The cost solver (costs.py) covers units greedily, narrowest producer first; that is optimal
    # only when any two "one of" sets (and the discount, which covers anything) are nested or
    # disjoint. True of the base game; checked so that new data cannot silently break it.
    sets = {frozenset(e.produce_one_of) for e in
            [c.effects for c in CARDS] + [w.effects for w in WONDERS] if e.produce_one_of}
    for a in sets:
        for b in sets:
            if a & b and not (a <= b or b <= a):
                raise CardDataError(f"choice sets {sorted(a)} and {sorted(b)} overlap")


_check_choice_sets_laminar()
