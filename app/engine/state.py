"""The mutable game state. Only the engine touches it; clients see views (``views.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple

from .cards import CARDS, RESOURCES, SCIENCE_SYMBOLS, WONDERS, Color
from .layouts import LAYOUTS
from .rng import Rng

if TYPE_CHECKING:
    from mypy_extensions import i64

    from .events import Event

SEATS = (0, 1)


class Phase(IntEnum):
    DRAFT = 0
    PLAY = 1
    OVER = 2


class DecisionKind(IntEnum):
    """What the seat to act must decide now."""

    PICK_WONDER = 0
    PLAY_CARD = 1
    CHOOSE_PROGRESS = 2
    """From the board, after a science pair."""
    CHOOSE_LIBRARY_TOKEN = 3
    """From the Great Library's private draw of tokens out of the game."""
    DESTROY_CARD = 4
    BUILD_FROM_DISCARD = 5
    CHOOSE_STARTER = 6


class Victory(StrEnum):
    """How a game was won. Its value is what JSON and the state hash show."""

    MILITARY = "military"
    """The pawn reached a capital."""
    SCIENCE = "science"
    """Six different science symbols."""
    CIVILIAN = "civilian"
    """The most points at the end of Age III, or a tie on points and blue cards (shared)."""
    RESIGNED = "resigned"
    """The other seat resigned."""
    TIME = "time"
    """The other seat's clock ran out."""
    ABANDONED = "abandoned"
    """The other seat left the game, and this one claimed the win."""


FORFEITS: tuple[Victory, ...] = (Victory.RESIGNED, Victory.TIME, Victory.ABANDONED)
"""The victories a seat concedes by :class:`~app.engine.actions.Forfeit`, not by the rules."""


DECISION_NAMES = {kind: kind.name.lower() for kind in DecisionKind}


class Decision(NamedTuple):
    kind: DecisionKind
    seat: int
    options: tuple[int, ...]
    """Wonder, token, card or seat indices, depending on ``kind`` (empty for PLAY_CARD)."""


@dataclass(frozen=True, slots=True)
class Options:
    """How a game is set up.

    ``wonder_selection``: ``"draft"`` (the normal 4+4 draft) or ``"first_game"`` (the
    rulebook's fixed wonders). ``first_player``: 0 or 1, or None to draw it from the seed.
    """

    wonder_selection: Literal["draft", "first_game"] = "draft"
    first_player: int | None = None

    def __post_init__(self) -> None:
        if self.wonder_selection not in ("draft", "first_game"):
            raise ValueError("wonder_selection must be 'draft' or 'first_game'")
        if self.first_player not in (None, 0, 1):
            raise ValueError("first_player must be 0, 1 or None")

    def to_json(self) -> dict[str, Any]:
        return {"wonder_selection": self.wonder_selection, "first_player": self.first_player}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        return cls(**data)


_PLAYER_FIELDS: Final = (
    "coins", "production", "choice_sets", "trade_price_one", "chains", "science",
    "colors", "cards", "wonders", "built_wonders", "retired_wonders", "tokens",
    "wonder_resource_discount", "blue_resource_discount", "receives_opponent_trade_coins",
    "extra_shields_per_red_card", "wonders_play_again", "coins_per_chain_build",
)
_GAME_FIELDS: Final = (
    "seed", "options", "rng", "phase", "age", "current", "first_player", "players",
    "pawn", "loot", "board_tokens", "box_tokens", "draft_rounds", "draft_offer",
    "draft_step", "unused_wonders", "decks", "removed_cards", "structure", "face_up",
    "cover_count", "accessible", "cards_left", "discard", "pending", "turn_open",
    "play_again", "last_taker", "wonders_built", "winner", "victory",
)
"""What a game state is; the hash covers exactly these. The other slots (``events``,
``revealed``, the index ``slot_of`` and each city's ``unbuilt``, ``fixed_prices``,
``price_key``, ``prices`` and ``price_stamp``) are working space, derived or transient."""

_NO_RESOURCE_PRICES: Final = tuple(-1 if c.needs else c.cost_coins for c in CARDS)
"""Per card: its price when it asks for no resource (the same for every city), else -1."""
_FREED_BY_CHAIN: Final = tuple(tuple(c.index for c in CARDS if c.chain_from == symbol)
                             for symbol in range(1 + max(max(c.chain_from, c.chain_to)
                                                         for c in CARDS)))
"""Per chain symbol: the cards it makes free."""

WONDER_PRICES: Final = len(CARDS)
"""Where wonder prices start in a city's price row (``PlayerState.prices``)."""
PRICE_SLOTS: Final = len(CARDS) + len(WONDERS)
PRICE_SPAN: Final = 64
"""A city's price row notes prices below this (a dearer one is worked out each time)."""
_STAMP_LIMIT: Final = 4 * PRICE_SPAN
"""Stamps cycle below this, so that every entry of a row stays a small int (Python keeps
one object of each int up to 256: storing one allocates nothing)."""

# A city's price key packs everything its prices depend on, each field in its own bits:
# fixed production (below 8 units, in a byte a resource: ``costs.price_by_words`` works on
# all five at once; also what the opponent's prices count), the resources it buys at 1 coin,
# how many "one of" producers of each kind it has, and its two resource discounts. Chains
# are not in it: a chain makes a card free before any price.
PRODUCTION_BITS: Final = 3
PRODUCTION_FIELD: Final = 8
PRODUCTION_MASK: Final = (1 << PRODUCTION_FIELD * len(RESOURCES)) - 1
TRADE_ONE_SHIFT: Final = PRODUCTION_FIELD * len(RESOURCES)
COUNT_BITS: Final = 2
CHOICE_KINDS: Final[tuple[tuple[int, ...], ...]] = tuple(sorted({
    e.produce_one_of for e in [c.effects for c in CARDS] + [w.effects for w in WONDERS]
    if e.produce_one_of}))
"""The kinds of "one of" producers, by their sets of resources."""
CHOICE_SHIFTS: Final = tuple(TRADE_ONE_SHIFT + len(RESOURCES) + COUNT_BITS * kind
                             for kind in range(len(CHOICE_KINDS)))
"""Where the count of each kind of "one of" producer starts in the key."""
WONDER_DISCOUNT_SHIFT: Final = TRADE_ONE_SHIFT + len(RESOURCES) + COUNT_BITS * len(
    CHOICE_KINDS)
BLUE_DISCOUNT_SHIFT: Final = WONDER_DISCOUNT_SHIFT + COUNT_BITS
assert 2 * PRODUCTION_BITS <= PRODUCTION_FIELD  # room for both cities' production: price_pair
_PRODUCTION_SPILL: Final = sum(((1 << PRODUCTION_FIELD) - (1 << PRODUCTION_BITS))
                              << PRODUCTION_FIELD * r for r in range(len(RESOURCES)))
"""The bits of the production bytes above a field's limit."""
_KIND_OF_CHOICE: Final = {options: kind for kind, options in enumerate(CHOICE_KINDS)}
# Sizes as plain constants: compiled, len() of an enum class calls Python code.
_RESOURCE_COUNT: Final = len(RESOURCES)
_SYMBOL_COUNT: Final = len(SCIENCE_SYMBOLS)
_COLOR_COUNT: Final = len(Color)
_CARD_COUNT: Final = len(CARDS)


def price_pair(key: i64, opponent_key: i64) -> i64:
    """A city's price key and its opponent's fixed production (all that its prices depend
    on) in one small int: the opponent's production fills the bits of each production byte
    above the city's own (both below ``2**PRODUCTION_BITS``)."""
    return key | (opponent_key & PRODUCTION_MASK) << PRODUCTION_BITS


class PlayerState:
    """One city: its treasury, production, cards, wonders and tokens."""

    __slots__ = (*_PLAYER_FIELDS, "fixed_prices", "price_key", "price_pair", "price_stamp",
                 "prices", "unbuilt")

    def __init__(self, same_as: PlayerState | None = None) -> None:
        """A new city, or an independent copy of ``same_as`` (see :meth:`clone`)."""
        if same_as is None:
            self.coins = 7
            self.production = [0] * _RESOURCE_COUNT
            """Fixed production (brown and grey cards): also what the opponent's prices count."""
            self.choice_sets: list[tuple[int, ...]] = []
            """One entry per "one of" producer (Forum, Caravansery, ...), narrowest first."""
            self.trade_price_one = [False] * _RESOURCE_COUNT
            self.chains = 0
            """Bit set of chain symbols shown by the city's cards."""
            self.fixed_prices = list(_NO_RESOURCE_PRICES)
            """What the city pays for each card whatever the cities make: 0 for a card its
            chains make free, the printed coins for a card that asks for no resource, -1 for
            the others (derived from ``chains``: :meth:`add_chain`, :meth:`remove_chain`)."""
            self.science = [0] * _SYMBOL_COUNT
            self.colors = [0] * _COLOR_COUNT
            self.cards: list[int] = []
            self.wonders: list[int] = []
            """Wonders owned, built or not, in the order they were drafted."""
            self.built_wonders: dict[int, int] = {}
            """Built wonder -> the card tucked under it."""
            self.retired_wonders: list[int] = []
            """Unbuilt wonder returned to the box when the seventh wonder was built."""
            self.tokens: list[int] = []
            # Standing rules from progress tokens (or any other effect that grants them).
            self.wonder_resource_discount = 0
            self.blue_resource_discount = 0
            self.receives_opponent_trade_coins = False
            self.extra_shields_per_red_card = 0
            self.wonders_play_again = False
            self.coins_per_chain_build = 0
            self.unbuilt: list[int] = []
            """The wonders not built yet, in the order of ``wonders`` (derived from it and
            ``built_wonders``)."""
            self.price_key: i64 = 0
            """What this city's prices depend on (:meth:`update_price_key`), 0 when empty."""
            self.price_pair: i64 = 0
            """The price key with the opponent's fixed production (:func:`price_pair`):
            everything this city's prices depend on, kept by :meth:`GameState.forget_prices`
            with the row."""
            self.prices = [-1] * PRICE_SLOTS
            """What this city pays for each card (by index; without its chain), then each
            wonder (at ``WONDER_PRICES + index``), as ``price_stamp + price``: an entry below
            the stamp is not known (yet)."""
            self.price_stamp = 0
            """Raised by ``PRICE_SPAN`` whenever the city's price key or its opponent's
            production changes (:meth:`GameState.forget_prices`): that forgets every price
            at once, without touching the row (but for a new row every fourth time)."""
        else:
            self.coins = same_as.coins
            self.production = same_as.production.copy()
            self.choice_sets = same_as.choice_sets.copy()
            self.trade_price_one = same_as.trade_price_one.copy()
            self.chains = same_as.chains
            self.fixed_prices = same_as.fixed_prices.copy()
            self.science = same_as.science.copy()
            self.colors = same_as.colors.copy()
            self.cards = same_as.cards.copy()
            self.wonders = same_as.wonders.copy()
            self.built_wonders = same_as.built_wonders.copy()
            self.retired_wonders = same_as.retired_wonders.copy()
            self.tokens = same_as.tokens.copy()
            self.wonder_resource_discount = same_as.wonder_resource_discount
            self.blue_resource_discount = same_as.blue_resource_discount
            self.receives_opponent_trade_coins = same_as.receives_opponent_trade_coins
            self.extra_shields_per_red_card = same_as.extra_shields_per_red_card
            self.wonders_play_again = same_as.wonders_play_again
            self.coins_per_chain_build = same_as.coins_per_chain_build
            self.unbuilt = same_as.unbuilt.copy()
            self.price_key = same_as.price_key
            self.price_pair = same_as.price_pair
            self.prices = same_as.prices.copy()
            self.price_stamp = same_as.price_stamp

    def clone(self) -> PlayerState:
        """An independent copy: its lists and dicts are its own (their items, numbers and
        tuples, are never changed in place, so they are shared)."""
        return PlayerState(self)

    def add_chain(self, symbol: int) -> None:
        """The city shows chain ``symbol``: the cards it chains to are free."""
        self.chains |= 1 << symbol
        for card in _FREED_BY_CHAIN[symbol]:
            self.fixed_prices[card] = 0

    def remove_chain(self, symbol: int) -> None:
        """The city no longer shows chain ``symbol`` (its card was destroyed)."""
        self.chains &= ~(1 << symbol)
        for card in _FREED_BY_CHAIN[symbol]:
            self.fixed_prices[card] = _NO_RESOURCE_PRICES[card]

    def update_fixed_prices(self) -> None:
        """Work ``fixed_prices`` out again from ``chains``."""
        self.fixed_prices = [0 if c.chain_from >= 0 and self.chains >> c.chain_from & 1
                             else price for c, price in zip(CARDS, _NO_RESOURCE_PRICES,
                                                            strict=True)]

    def update_price_key(self) -> int:
        """Work the price key out again from the fields it packs; returns the bits that
        changed."""
        key: i64 = 0
        shift: i64 = 0
        spilled: i64 = 0  # any bit at or above a field's limit, or a sign
        for units in self.production:
            key |= units << shift
            spilled |= units
            shift += PRODUCTION_FIELD
        spilled = spilled >> PRODUCTION_BITS
        cheap: i64 = 1 << TRADE_ONE_SHIFT
        for one in self.trade_price_one:
            if one:
                key |= cheap
            cheap <<= 1
        for options in self.choice_sets:
            key += 1 << CHOICE_SHIFTS[_KIND_OF_CHOICE[options]]
        if len(self.choice_sets) >> COUNT_BITS and not self._counts_fit():
            spilled = 1
        discounts: i64 = self.wonder_resource_discount | self.blue_resource_discount
        spilled |= discounts >> COUNT_BITS
        key |= self.wonder_resource_discount << WONDER_DISCOUNT_SHIFT
        key |= self.blue_resource_discount << BLUE_DISCOUNT_SHIFT
        if spilled:
            raise ValueError(f"a city out of the price key's range: {self.production}, "
                             f"{len(self.choice_sets)} producers")
        changed: i64 = self.price_key ^ key
        self.price_key = key
        return changed

    def add_production_to_key(self, added: int) -> int:
        """The price key after ``added`` (units laid out as in the key) joined the fixed
        production, the rest unchanged; returns the bits that changed."""
        key: i64 = self.price_key + added
        if key & _PRODUCTION_SPILL:  # a field overflowed: work it out (and refuse it)
            return self.update_price_key()
        changed: i64 = self.price_key ^ key
        self.price_key = key
        return changed

    def _counts_fit(self) -> bool:
        """Whether no kind of "one of" producer is too many for its count in the key."""
        return all(sum(1 for options in self.choice_sets if _KIND_OF_CHOICE[options] == kind)
                   >> COUNT_BITS == 0 for kind in range(len(CHOICE_KINDS)))

    def take_wonder(self, wonder: int) -> None:
        """The city gets ``wonder`` (drafted, or dealt for a first game)."""
        self.wonders.append(wonder)
        self.unbuilt.append(wonder)

    def unbuilt_wonders(self) -> list[int]:
        return [w for w in self.wonders if w not in self.built_wonders]

    def snapshot(self) -> dict[str, Any]:
        """Every field, for hashing and debugging."""
        return {name: _plain(getattr(self, name)) for name in _PLAYER_FIELDS}


class GameState:
    """Everything about one game, hidden parts included."""

    __slots__ = (*_GAME_FIELDS, "events", "revealed", "slot_of")

    def __init__(self, seed: int, options: Options, same_as: GameState | None = None) -> None:
        """A game about to be set up from ``seed``, or an independent copy of ``same_as``
        (see :meth:`clone`; ``seed`` and ``options`` are then its own)."""
        self.seed = seed
        self.options = options
        if same_as is None:
            self.rng = Rng(seed)
            self.phase: int = int(Phase.DRAFT)
            """A :class:`Phase`, kept as a plain int: compiled, a comparison is one
            instruction; interpreted, comparing exact ints is specialised, an enum's not."""
            self.age = 0
            self.current = 0
            self.first_player = 0
            # Any length to mypyc: a pair would be kept unboxed, and boxed for every lookup.
            self.players: tuple[PlayerState, ...] = (PlayerState(), PlayerState())
            self.pawn = 0
            """Conflict pawn, -9..9; positive = towards seat 1's capital (seat 0 leads)."""
            self.loot = [[True, True], [True, True]]
            """loot[seat] = [2-coin token, 5-coin token] still lying on ``seat``'s side."""
            self.board_tokens: list[int] = []
            self.box_tokens: list[int] = []
            self.draft_rounds: list[list[int]] = []
            self.draft_offer: list[int] = []
            self.draft_step = 0
            self.unused_wonders: list[int] = []
            self.decks: dict[int, list[int]] = {}
            """Age -> its 20 cards in slot order, dealt at setup (hidden until laid out)."""
            self.removed_cards: list[int] = []
            """Cards returned to the box unseen: 3 per age and the 4 guilds not in play."""
            self.structure: list[int] = []
            """Card index in each slot of the current age, -1 once taken."""
            self.face_up: list[bool] = []
            self.cover_count: list[int] = []
            self.accessible: list[int] = []
            self.cards_left = 0
            self.discard: list[int] = []
            self.pending: list[Decision] = []
            """Decisions raised by the turn in progress; the first one is asked now."""
            self.turn_open = False
            """A card turn is in progress (decisions may still be pending)."""
            self.play_again = False
            self.last_taker = 0
            self.wonders_built = 0
            self.winner: int | None = None
            self.victory: Victory | None = None
            self.events: list[Event] | None = None
            """Events of the action being applied by ``Game.apply``; None when nothing records
            them (``Game.play``, setup)."""
            self.revealed = False
            """The action being applied showed something hidden (see ``Game.can_take_back``)."""
            self.slot_of = [-1] * _CARD_COUNT
            """Card -> its slot, for the cards still in the current structure; -1 elsewhere."""
        else:
            self.rng = same_as.rng.clone()
            self.phase = same_as.phase
            self.age = same_as.age
            self.current = same_as.current
            self.first_player = same_as.first_player
            self.players = (same_as.players[0].clone(), same_as.players[1].clone())
            self.pawn = same_as.pawn
            self.loot = [same_as.loot[0].copy(), same_as.loot[1].copy()]
            self.board_tokens = same_as.board_tokens.copy()
            self.box_tokens = same_as.box_tokens.copy()
            self.draft_rounds = [offer.copy() for offer in same_as.draft_rounds]
            self.draft_offer = same_as.draft_offer.copy()
            self.draft_step = same_as.draft_step
            self.unused_wonders = same_as.unused_wonders.copy()
            self.decks = {age: deck.copy() for age, deck in same_as.decks.items()}
            self.removed_cards = same_as.removed_cards.copy()
            self.structure = same_as.structure.copy()
            self.face_up = same_as.face_up.copy()
            self.cover_count = same_as.cover_count.copy()
            self.accessible = same_as.accessible.copy()
            self.cards_left = same_as.cards_left
            self.discard = same_as.discard.copy()
            self.pending = same_as.pending.copy()
            self.turn_open = same_as.turn_open
            self.play_again = same_as.play_again
            self.last_taker = same_as.last_taker
            self.wonders_built = same_as.wonders_built
            self.winner = same_as.winner
            self.victory = same_as.victory
            self.events = None
            self.revealed = False
            self.slot_of = same_as.slot_of.copy()

    def clone(self) -> GameState:
        """An independent copy, for search: what a game does to one leaves the other as it
        was. Every mutable container is copied (positions arranged by hand change more
        than play does); tuples, decisions and options are shared."""
        return GameState(self.seed, self.options, self)

    def forget_prices(self, seat: int) -> None:
        """Forget every price of ``seat``'s city, after its price key or its opponent's
        production changed."""
        player = self.players[seat]
        player.price_pair = price_pair(player.price_key, self.players[1 - seat].price_key)
        stamp = player.price_stamp + PRICE_SPAN
        if stamp == _STAMP_LIMIT:
            stamp = 0
            player.prices = [-1] * PRICE_SLOTS
        player.price_stamp = stamp

    def lay_out_age(self, age: int) -> None:
        """Lay out ``age``'s dealt deck as the structure, each card face up or down as its
        slot says, and start playing it. The game does this when an age begins; positions
        arranged for tests (:mod:`app.engine.scenario`) do it to skip the earlier ages."""
        layout = LAYOUTS[age]
        self.phase = int(Phase.PLAY)
        self.age = age
        self.structure = structure = list(self.decks[age])
        slot_of = [-1] * _CARD_COUNT
        for slot, card in enumerate(structure):
            slot_of[card] = slot
        self.slot_of = slot_of
        self.face_up = list(layout.face_up)
        self.cover_count = list(layout.cover_count)
        self.accessible = list(layout.accessible)
        self.cards_left = layout.size
        self.play_again = False

    def reindex(self) -> None:
        """Rebuild what is derived from the state (card -> slot, the price keys and rows)
        after it was changed by hand, as :mod:`app.engine.scenario` does; play keeps them up
        to date."""
        self.slot_of = [-1] * _CARD_COUNT
        for slot, card in enumerate(self.structure):
            if card >= 0:
                self.slot_of[card] = slot
        for player in self.players:
            player.unbuilt = player.unbuilt_wonders()
            player.update_fixed_prices()
            player.update_price_key()
        self.forget_prices(0)
        self.forget_prices(1)

    def snapshot(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in _GAME_FIELDS:
            value = getattr(self, name)
            if name == "rng":
                value = value.state
            elif name == "options":
                value = value.to_json()
            elif name == "players":
                value = [p.snapshot() for p in value]
            out[name] = _plain(value)
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, IntEnum):
        return int(value)
    if isinstance(value, StrEnum):
        return value.value
    return value
