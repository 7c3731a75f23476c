"""What building something costs: the cheapest legal payment, with its breakdown.

A resource the city lacks is bought from the bank at ``2 + what the opponent produces of it
with brown and grey cards``, or 1 coin with the matching reserve card / Customs House.
"One of" producers (Forum, Caravansery, Great Lighthouse, Piraeus) and the Masonry /
Architecture discounts each cover one unit; they are assigned to the most expensive units,
so the price shown is always the lowest the rules allow.
"""

from __future__ import annotations

from typing import Final

from .cards import CARDS, RESOURCES, WONDERS, Color
from .state import PlayerState

_ALL_RESOURCES: Final = tuple(range(len(RESOURCES)))


class Payment:
    """How a build is paid. ``total`` coins leave the builder's treasury. Immutable.

    A plain class rather than a dataclass: compiled with mypyc, dataclasses are several
    times slower to create, and every build with a purchase creates one.
    """

    __slots__ = ("bought", "chain", "coins", "from_choice", "to_opponent", "trade", "waived")

    def __init__(
        self, coins: int, trade: int, *, chain: bool = False,
        bought: tuple[tuple[int, int, int], ...] = (), from_choice: tuple[int, ...] = (),
        waived: tuple[int, ...] = (), to_opponent: int = 0,
    ) -> None:
        self.coins: Final = coins
        """Coin cost printed on the card or wonder."""
        self.trade: Final = trade
        """Coins paid to buy missing resources."""
        self.chain: Final = chain
        """Built for free through a chain symbol."""
        self.bought: Final = bought
        """(resource, units, unit price) for each resource bought."""
        self.from_choice: Final = from_choice
        """Resources supplied by "one of" producers."""
        self.waived: Final = waived
        """Resources removed from the cost by Masonry / Architecture."""
        self.to_opponent: Final = to_opponent
        """Part of ``trade`` that goes to the opponent instead of the bank (Economy)."""

    def _key(self) -> tuple[object, ...]:
        return (self.coins, self.trade, self.chain, self.bought, self.from_choice,
                self.waived, self.to_opponent)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Payment) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Payment(coins={self.coins}, trade={self.trade}, chain={self.chain}, "
                f"bought={self.bought}, from_choice={self.from_choice}, waived={self.waived}, "
                f"to_opponent={self.to_opponent})")

    @property
    def total(self) -> int:
        return self.coins + self.trade

    def to_json(self) -> dict[str, object]:
        return {
            "total": self.total, "coins": self.coins, "trade": self.trade, "chain": self.chain,
            "bought": [{"resource": RESOURCES[r], "units": n, "unit_price": p}
                       for r, n, p in self.bought],
            "from_choice": [RESOURCES[r] for r in self.from_choice],
            "waived": [RESOURCES[r] for r in self.waived],
            "to_opponent": self.to_opponent,
        }


CHAIN: Final = Payment(coins=0, trade=0, chain=True)
_COINS_ONLY: Final = tuple(Payment(coins=n, trade=0) for n in range(16))


def coins_only(coins: int) -> Payment:
    """A payment of printed coins alone, nothing bought."""
    return _COINS_ONLY[coins] if coins < len(_COINS_ONLY) else Payment(coins=coins, trade=0)


def unit_prices(buyer: PlayerState, opponent: PlayerState) -> list[int]:
    """Price of one unit of each resource for ``buyer``."""
    return [1 if buyer.trade_price_one[r] else 2 + opponent.production[r] for r in _ALL_RESOURCES]


def _trade_price(
    buyer: PlayerState, opponent: PlayerState, needs: tuple[tuple[int, int], ...],
    discount: int, detail: list[list[int]] | None = None,
) -> int:
    """Coins to buy what ``needs`` (sparse resource units) asks beyond the buyer's production.

    With ``detail`` (three lists) it also records the units bought, covered by "one of"
    producers and waived, in that order.
    """
    production = buyer.production
    trade_one = buyer.trade_price_one
    oppo = opponent.production
    choice_sets = buyer.choice_sets
    if not choice_sets and not discount and detail is None:
        total = 0
        for r, n in needs:
            missing = n - production[r]
            if missing > 0:
                total += missing * (1 if trade_one[r] else 2 + oppo[r])
        return total
    units: list[tuple[int, int]] = []
    for r, n in needs:
        missing = n - production[r]
        if missing > 0:
            price = 1 if trade_one[r] else 2 + oppo[r]
            units.extend([(price, r)] * missing)
    if not units:
        return 0
    # Most expensive unit first, each taken by the narrowest free producer that can make it.
    # The producers' sets are nested or disjoint (checked when the data loads), so this greedy
    # assignment covers the most valuable units possible.
    units.sort(reverse=True)
    producers = choice_sets + [_ALL_RESOURCES] * discount  # choice_sets: narrowest first
    used = [False] * len(producers)
    total = 0
    for price, r in units:
        for i, options in enumerate(producers):
            if not used[i] and r in options:
                used[i] = True
                if detail is not None:
                    detail[1 if i < len(choice_sets) else 2].append(r)
                break
        else:
            total += price
            if detail is not None:
                detail[0].append(r)
    return total


def _payment(
    buyer: PlayerState, opponent: PlayerState, coins: int, needs: tuple[tuple[int, int], ...],
    discount: int,
) -> Payment:
    to_opponent = opponent.receives_opponent_trade_coins
    if not buyer.choice_sets and not discount:
        # Nothing covers part of the cost: every missing unit is bought at its unit price.
        production, trade_one, oppo = buyer.production, buyer.trade_price_one, opponent.production
        purchases = []
        trade = 0
        for r, n in needs:
            missing = n - production[r]
            if missing > 0:
                price = 1 if trade_one[r] else 2 + oppo[r]
                purchases.append((r, missing, price))
                trade += missing * price
        if not trade:
            return coins_only(coins)
        return Payment(coins=coins, trade=trade, bought=tuple(purchases),
                       to_opponent=trade if to_opponent else 0)
    detail: list[list[int]] = [[], [], []]
    trade = _trade_price(buyer, opponent, needs, discount, detail)
    if not trade:
        return coins_only(coins)
    prices = unit_prices(buyer, opponent)
    bought = tuple(
        (r, detail[0].count(r), prices[r]) for r in _ALL_RESOURCES if r in detail[0]
    )
    return Payment(
        coins=coins, trade=trade, bought=bought, from_choice=tuple(sorted(detail[1])),
        waived=tuple(sorted(detail[2])), to_opponent=trade if to_opponent else 0,
    )


def card_price(buyer: PlayerState, opponent: PlayerState, card_index: int) -> int:
    """Total coins to build a card (0 through a chain). The fast path for legality."""
    card = CARDS[card_index]
    if card.chain_from >= 0 and buyer.chains >> card.chain_from & 1:
        return 0
    discount = buyer.blue_resource_discount if card.color == Color.BLUE else 0
    return card.cost_coins + _trade_price(buyer, opponent, card.needs, discount)


def card_payment(buyer: PlayerState, opponent: PlayerState, card_index: int,
                 price: int | None = None) -> Payment:
    """The cheapest payment for a card. When resources must be bought, it also says which,
    at what unit price, and how the rest was covered ("one of" producers, discounts).
    ``price``, if the caller already knows it, saves working it out again."""
    card = CARDS[card_index]
    if card.chain_from >= 0 and buyer.chains >> card.chain_from & 1:
        return CHAIN
    if price is None:
        price = card_price(buyer, opponent, card_index)
    if price == card.cost_coins:
        return coins_only(price)
    discount = buyer.blue_resource_discount if card.color == Color.BLUE else 0
    return _payment(buyer, opponent, card.cost_coins, card.needs, discount)


def wonder_price(buyer: PlayerState, opponent: PlayerState, wonder_index: int) -> int:
    wonder = WONDERS[wonder_index]
    return wonder.cost_coins + _trade_price(
        buyer, opponent, wonder.needs, buyer.wonder_resource_discount
    )


def wonder_payment(buyer: PlayerState, opponent: PlayerState, wonder_index: int,
                   price: int | None = None) -> Payment:
    """Like :func:`card_payment`, for a wonder."""
    wonder = WONDERS[wonder_index]
    if price is None:
        price = wonder_price(buyer, opponent, wonder_index)
    if price == wonder.cost_coins:
        return coins_only(price)
    return _payment(buyer, opponent, wonder.cost_coins, wonder.needs,
                    buyer.wonder_resource_discount)


def sale_value(seller: PlayerState) -> int:
    """Coins for discarding a card: 2 plus 1 per yellow card in the seller's city."""
    return 2 + seller.colors[Color.YELLOW]
