"""The state of a classic game: options, and each seat's city.

Seats are numbered clockwise. The **left** neighbour of seat ``s`` is ``s + 1`` (mod the
number of seats): the seat Ages I and III pass hands to (RO L307-311, PT L300-303: left is
clockwise); the right neighbour is ``s - 1``, the seat Age II passes to. West Trading Post
discounts the left neighbour, East Trading Post the right one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .cards import BOARD_BY_ID, BOARDS, COLORS, Stage

SIDES: Final = ("A", "B", "random")
_EITHER_BIT: Final = {(1 << a) | (1 << b): i for i, (a, b) in enumerate(
    [(a, b) for a in range(4) for b in range(a + 1, 4)])}
"""The six two-raw-material masks of the brown either/or cards, each a bit of a key."""
_RAW_CHOICE: Final = 0b1111
_GOODS_CHOICE: Final = 0b1110000
_PRIVATE_BITS: Final = 8
"""The low bits of a buy key: the counts of private raw and goods choices, the 4 prices."""


def sell_mask(resources: int) -> int:
    """The bits of a sell key that matter to a cost needing ``resources`` (a mask): their
    fixed units, and the either/or cards offering one of them."""
    mask = 0
    for resource in range(7):
        if resources >> resource & 1:
            mask |= 0xF << 4 * (6 - resource)
    for either, bit in _EITHER_BIT.items():
        if either & resources:
            mask |= 1 << (28 + bit)
    return mask


def buy_mask(resources: int) -> int:
    """The bits of a buy key that matter to a cost needing ``resources``: the private
    choices and prices of raw materials only if it needs some, of goods likewise."""
    private = 0
    if resources & 0b1111:
        private |= 0b11 << 6 | 0b1010  # raw choices; raw from the left, from the right
    if resources & 0b1110000:
        private |= 0b11 << 4 | 0b0101  # goods choices; goods from the left, from the right
    return sell_mask(resources) << _PRIVATE_BITS | private
DEFAULT_PRICE: Final = 2


@dataclass(frozen=True)
class Options:
    """How a game is set up.

    ``players``: 3 to 7. ``sides``: every board on side ``A``, on side ``B``, or each side
    drawn at ``random``. ``boards``: the boards by seat, when the players chose them (RO
    L159-160); None deals them at random.
    """

    players: int = 3
    sides: str = "A"
    boards: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not 3 <= self.players <= 7:
            raise ValueError("7 Wonders is played by 3 to 7 players")
        if self.sides not in SIDES:
            raise ValueError(f"sides is one of {SIDES}")
        if self.boards is not None and (
                len(self.boards) != self.players or len(set(self.boards)) != self.players
                or not set(self.boards) <= set(BOARD_BY_ID)):
            raise ValueError("boards names a different known board for every seat")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "sides": self.sides}
        if self.boards is not None:
            out["boards"] = list(self.boards)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        boards = data.get("boards")
        return cls(players=int(data.get("players", 3)), sides=str(data.get("sides", "A")),
                   boards=None if boards is None else tuple(boards))


class City:
    """One seat's board and city, with what its cards add up to (kept up to date by
    :mod:`app.classic.effects` as cards and stages are built)."""

    __slots__ = (
        "board",
        "built",
        "buy_key",
        "buy_key_small",
        "cards",
        "chainable",
        "choice",
        "coins",
        "colors",
        "copy_guild",
        "discarded",
        "either",
        "free_build",
        "free_used",
        "names",
        "prices",
        "produce",
        "science",
        "sell_key",
        "sell_key_small",
        "seventh",
        "shields",
        "side",
        "stages",
        "tokens",
        "tucked",
        "wildcards",
    )

    def __init__(self, board: int, side: str, same_as: City | None = None) -> None:
        if same_as is not None:
            self._copy(same_as)
            return
        self.board = board
        self.side = side
        self.stages: tuple[Stage, ...] = BOARDS[board].sides[side]
        self.coins = 3
        self.cards: list[int] = []
        """Card indices of the structures built, in order."""
        self.names: set[str] = set()
        self.chainable: set[str] = set()
        """The names a chain may rest on: structures built in an earlier age (RO L292, PT
        L214), so not a card built from the discard pile in this age."""
        self.colors = [0] * len(COLORS)
        self.built = 0
        """Wonder stages built."""
        self.tucked: list[int] = []
        self.discarded: list[int] = []
        """The cards this seat put on the discard pile (its own knowledge)."""
        self.tokens: list[int] = []
        self.produce = [0] * 7
        self.produce[BOARDS[board].resource] = 1
        self.either: list[int] = []
        self.choice: list[int] = []
        self.prices = [DEFAULT_PRICE] * 4
        """Raw from the left, manufactured from the left, raw from the right, manufactured
        from the right."""
        self.shields = 0
        self.science = [0, 0, 0]
        self.wildcards = 0
        self.free_build = False
        self.free_used = False
        """Olympia A's free build was used in the current age."""
        self.seventh = False
        self.copy_guild = False
        self.sell_key = self.sell_key_small = 0
        """What neighbours may buy here (fixed units and either/or cards) as one integer;
        the small key counts at most 2 units of a resource (enough for a cost needing no
        more than 2 of any)."""
        self.buy_key = self.buy_key_small = 0
        """What this city has and pays to buy (its sell key, private choices, prices)."""
        self.touch()

    def touch(self) -> None:
        """Production or prices changed: work the keys out again. Prices are memoised by
        these small integers, so equal cities share them across seats and games."""
        key = small = 0
        for units in self.produce:
            key = key << 4 | units
            small = small << 4 | min(units, 2)
        either = 0
        for mask in self.either:
            either |= 1 << (28 + _EITHER_BIT[mask])
        self.sell_key, self.sell_key_small = key | either, small | either
        raw = sum(1 for mask in self.choice if mask == _RAW_CHOICE)
        goods = sum(1 for mask in self.choice if mask == _GOODS_CHOICE)
        if len(self.choice) != raw + goods:
            raise ValueError("a private choice that is not all raw or all goods")
        private = 0
        for price in self.prices:
            private = private << 1 | (price - 1)
        private |= (raw << 2 | goods) << 4
        self.buy_key = self.sell_key << _PRIVATE_BITS | private
        self.buy_key_small = self.sell_key_small << _PRIVATE_BITS | private

    def clone(self) -> City:
        """An independent copy (its lists its own)."""
        return City(self.board, self.side, self)

    def _copy(self, source: City) -> None:
        self.board, self.side, self.stages = source.board, source.side, source.stages
        self.coins, self.built, self.shields = source.coins, source.built, source.shields
        self.cards, self.names = source.cards[:], set(source.names)
        self.chainable = set(source.chainable)
        self.colors, self.tucked = source.colors[:], source.tucked[:]
        self.discarded, self.tokens = source.discarded[:], source.tokens[:]
        self.produce, self.either = source.produce[:], source.either[:]
        self.choice, self.prices = source.choice[:], source.prices[:]
        self.science, self.wildcards = source.science[:], source.wildcards
        self.free_build, self.free_used = source.free_build, source.free_used
        self.seventh, self.copy_guild = source.seventh, source.copy_guild
        self.sell_key, self.buy_key = source.sell_key, source.buy_key
        self.sell_key_small, self.buy_key_small = source.sell_key_small, source.buy_key_small

    def snapshot(self) -> dict[str, Any]:
        """Everything that defines the city (what it adds up to follows from it)."""
        return {"board": self.board, "side": self.side, "coins": self.coins,
                "cards": self.cards, "this_age": sorted(self.names - self.chainable),
                "built": self.built, "tucked": self.tucked,
                "discarded": self.discarded, "tokens": self.tokens,
                "free_used": self.free_used}
