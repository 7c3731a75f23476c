"""The mutable game state. Only the engine touches it; clients see views (``views.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple

from .cards import CARDS, RESOURCES, SCIENCE_SYMBOLS, WONDERS, Color
from .layouts import LAYOUTS
from .rng import Rng

if TYPE_CHECKING:
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
"""What a game state is; the hash covers exactly these. The other slots (``events`` and
the derived indexes ``slot_of`` and ``price_cache``) are working space."""

WONDER_PRICES: Final = len(CARDS)
"""Where wonder prices start in a seat's price cache."""
_NO_PRICES: Final = [-1] * (len(CARDS) + len(WONDERS))


class PlayerState:
    """One city: its treasury, production, cards, wonders and tokens."""

    __slots__ = _PLAYER_FIELDS

    def __init__(self) -> None:
        self.coins = 7
        self.production = [0] * len(RESOURCES)
        """Fixed production (brown and grey cards): also what the opponent's prices count."""
        self.choice_sets: list[tuple[int, ...]] = []
        """One entry per "one of" producer (Forum, Caravansery, ...), narrowest first."""
        self.trade_price_one = [False] * len(RESOURCES)
        self.chains = 0
        """Bit set of chain symbols shown by the city's cards."""
        self.science = [0] * len(SCIENCE_SYMBOLS)
        self.colors = [0] * len(Color)
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

    def clone(self) -> PlayerState:
        """An independent copy: its lists and dicts are its own (their items, numbers and
        tuples, are never changed in place, so they are shared)."""
        twin = PlayerState()  # (no __new__ trick: the compiled class needs its __init__)
        twin.coins = self.coins
        twin.production = self.production.copy()
        twin.choice_sets = self.choice_sets.copy()
        twin.trade_price_one = self.trade_price_one.copy()
        twin.chains = self.chains
        twin.science = self.science.copy()
        twin.colors = self.colors.copy()
        twin.cards = self.cards.copy()
        twin.wonders = self.wonders.copy()
        twin.built_wonders = self.built_wonders.copy()
        twin.retired_wonders = self.retired_wonders.copy()
        twin.tokens = self.tokens.copy()
        twin.wonder_resource_discount = self.wonder_resource_discount
        twin.blue_resource_discount = self.blue_resource_discount
        twin.receives_opponent_trade_coins = self.receives_opponent_trade_coins
        twin.extra_shields_per_red_card = self.extra_shields_per_red_card
        twin.wonders_play_again = self.wonders_play_again
        twin.coins_per_chain_build = self.coins_per_chain_build
        return twin

    def unbuilt_wonders(self) -> list[int]:
        return [w for w in self.wonders if w not in self.built_wonders]

    def snapshot(self) -> dict[str, Any]:
        """Every field, for hashing and debugging."""
        return {name: _plain(getattr(self, name)) for name in _PLAYER_FIELDS}


class GameState:
    """Everything about one game, hidden parts included."""

    __slots__ = (*_GAME_FIELDS, "events", "slot_of", "price_cache")

    def __init__(self, seed: int, options: Options) -> None:
        self.seed = seed
        self.options = options
        self.rng = Rng(seed)
        self.phase = Phase.DRAFT
        self.age = 0
        self.current = 0
        self.first_player = 0
        self.players = (PlayerState(), PlayerState())
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
        self.events: list[Event] = []
        """Events of the action being applied."""
        self.slot_of: dict[int, int] = {}
        """Card -> its slot, for the cards still in the current structure."""
        self.price_cache = (list(_NO_PRICES), list(_NO_PRICES))
        """Per seat: the total price of each card (by index), then of each wonder (at
        ``WONDER_PRICES + index``); -1 = not known. Prices change only when a city changes:
        ``effects.gain`` and ``effects.remove_card`` call :meth:`forget_prices`."""

    def clone(self) -> GameState:
        """An independent copy, for search: what a game does to one leaves the other as it
        was. Every mutable container is copied (positions arranged by hand change more
        than play does); tuples, decisions and options are shared."""
        twin = GameState(self.seed, self.options)  # every field below is set again
        twin.rng = self.rng.clone()
        twin.phase = self.phase
        twin.age = self.age
        twin.current = self.current
        twin.first_player = self.first_player
        twin.players = (self.players[0].clone(), self.players[1].clone())
        twin.pawn = self.pawn
        twin.loot = [self.loot[0].copy(), self.loot[1].copy()]
        twin.board_tokens = self.board_tokens.copy()
        twin.box_tokens = self.box_tokens.copy()
        twin.draft_rounds = [offer.copy() for offer in self.draft_rounds]
        twin.draft_offer = self.draft_offer.copy()
        twin.draft_step = self.draft_step
        twin.unused_wonders = self.unused_wonders.copy()
        twin.decks = {age: deck.copy() for age, deck in self.decks.items()}
        twin.removed_cards = self.removed_cards.copy()
        twin.structure = self.structure.copy()
        twin.face_up = self.face_up.copy()
        twin.cover_count = self.cover_count.copy()
        twin.accessible = self.accessible.copy()
        twin.cards_left = self.cards_left
        twin.discard = self.discard.copy()
        twin.pending = self.pending.copy()
        twin.turn_open = self.turn_open
        twin.play_again = self.play_again
        twin.last_taker = self.last_taker
        twin.wonders_built = self.wonders_built
        twin.winner = self.winner
        twin.victory = self.victory
        twin.events = []
        twin.slot_of = self.slot_of.copy()
        twin.price_cache = (self.price_cache[0].copy(), self.price_cache[1].copy())
        return twin

    def forget_prices(self, seat: int) -> None:
        self.price_cache[seat][:] = _NO_PRICES

    def lay_out_age(self, age: int) -> None:
        """Lay out ``age``'s dealt deck as the structure, each card face up or down as its
        slot says, and start playing it. The game does this when an age begins; positions
        arranged for tests (:mod:`app.engine.scenario`) do it to skip the earlier ages."""
        layout = LAYOUTS[age]
        self.phase = Phase.PLAY
        self.age = age
        self.structure = list(self.decks[age])
        self.slot_of = {card: slot for slot, card in enumerate(self.structure)}
        self.face_up = list(layout.face_up)
        self.cover_count = [len(c) for c in layout.covered_by]
        self.accessible = list(layout.initially_accessible())
        self.cards_left = layout.size
        self.play_again = False

    def reindex(self) -> None:
        """Rebuild what is derived from the state (card -> slot, the price caches) after it
        was changed by hand, as :mod:`app.engine.scenario` does; play keeps them up to date."""
        self.slot_of = {card: slot for slot, card in enumerate(self.structure) if card >= 0}
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
