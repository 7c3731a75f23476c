"""What building something costs: the cheapest legal payment, with its breakdown.

A resource the city lacks is bought from the bank at ``2 + what the opponent produces of it
with brown and grey cards``, or 1 coin with the matching reserve card / Customs House.
"One of" producers (Forum, Caravansery, Great Lighthouse, Piraeus) and the Masonry /
Architecture discounts each cover one unit; they are assigned to the most expensive units,
so the price shown is always the lowest the rules allow.

:func:`card_price`, :func:`wonder_price` and the payments work it out from the cities'
fields; :func:`slot_price`, what the game's price memo is filled with, gives the same
totals from the cities' price keys (``PlayerState.price_key``), with integer arithmetic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .cards import CARDS, RESOURCES, WONDERS, Color
from .rng import COMPILED
from .state import (
    BLUE_DISCOUNT_SHIFT,
    CHOICE_KINDS,
    CHOICE_SHIFTS,
    COUNT_BITS,
    PRODUCTION_BITS,
    PRODUCTION_FIELD,
    PRODUCTION_MASK,
    TRADE_ONE_SHIFT,
    WONDER_DISCOUNT_SHIFT,
    PlayerState,
    price_pair,
)

if TYPE_CHECKING:
    from mypy_extensions import i64

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


def _covering(needs: tuple[tuple[int, int], ...], discount_shift: int) -> int:
    """The bits of a buyer's price key that may cover part of a cost of ``needs``: its "one
    of" producers of a needed resource (no others are ever used) and the discount that
    applies (at ``discount_shift``; -1: none)."""
    needed = {r for r, _ in needs}
    bits = 0
    for kind, options in enumerate(CHOICE_KINDS):
        if needed.intersection(options):
            bits |= (1 << COUNT_BITS) - 1 << CHOICE_SHIFTS[kind]
    if discount_shift >= 0:
        bits |= (1 << COUNT_BITS) - 1 << discount_shift
    return bits


# Whole-byte arithmetic over the five resources at once (below 2**40: no carry between
# bytes, no overflow in compiled code).
_ONES: Final = sum(1 << PRODUCTION_FIELD * r for r in _ALL_RESOURCES)
"""1 in every resource's byte."""
_GUARDS: Final = _ONES << PRODUCTION_FIELD - 1
_LOWS: Final = (1 << PRODUCTION_FIELD - 1) - 1
"""Multiplied by a byte's 1, its bits below the top one."""
_TWOS: Final = 2 * _ONES
_BYTE: Final = (1 << PRODUCTION_FIELD) - 1
_CHEAP_MASK: Final = (1 << len(RESOURCES)) - 1
_SPREAD: Final = sum(1 << (PRODUCTION_FIELD - 1) * r for r in _ALL_RESOURCES)
"""Multiplied by the "buy at 1 coin" bits, puts bit r at the foot of byte r."""

# What is bought, a byte a resource: the missing units (above 4 bits) and their unit
# price (in the low 4 bits).
_MISSING_BITS: Final = 2
_UNIT_PRICE_BITS: Final = 4
_PAIR_BYTE: Final = (1 << 2 * PRODUCTION_BITS) - 1
"""A production byte of a price pair: the buyer's units, then the opponent's."""
_COUNT_MASK: Final = (1 << COUNT_BITS) - 1


class _Cost:
    """A price slot's cost, laid out as its price key works: machine integers when
    compiled (numbers this large kept in a tuple would be slow to read)."""

    __slots__ = ("buyer_bits", "coins", "covering", "discount_shift", "needs",
                 "opponent_bits", "pair_bits", "pairs")

    def __init__(self, coins: int, pairs: tuple[tuple[int, int], ...],
                 discount_shift: int) -> None:
        if any(n >> _MISSING_BITS for _, n in pairs):
            raise ValueError("a cost asks for more units of a resource than the keys hold")
        self.coins: i64 = coins
        self.pairs = pairs
        """The cost as (resource, units) pairs."""
        self.needs: i64 = sum(n << PRODUCTION_FIELD * r for r, n in pairs)
        """The cost laid out as the production in a price key, a byte a resource."""
        self.discount_shift: i64 = discount_shift
        """Where the discount that applies starts in the buyer's key (-1: none)."""
        self.covering: i64 = _covering(pairs, discount_shift)
        self.opponent_bits: i64 = sum(_BYTE << PRODUCTION_FIELD * r for r, _ in pairs)
        """The opponent's production the price depends on (the bytes of its resources)."""
        self.buyer_bits: i64 = self.opponent_bits | self.covering | sum(
            1 << TRADE_ONE_SHIFT + r for r, _ in pairs)
        """Everything of the buyer's key the price depends on."""
        self.pair_bits: i64 = self.buyer_bits & ~PRODUCTION_MASK | sum(
            _PAIR_BYTE << PRODUCTION_FIELD * r for r, _ in pairs)
        """Everything of the buyer's price pair (``state.price_pair``) the price depends
        on: both cities' production of the resources of the cost, the buyer's cheap
        resources and what may cover part of the cost."""


_COSTS: Final = tuple(
    [_Cost(c.cost_coins, c.needs, BLUE_DISCOUNT_SHIFT if c.color == Color.BLUE else -1)
     for c in CARDS] + [_Cost(w.cost_coins, w.needs, WONDER_DISCOUNT_SHIFT) for w in WONDERS])
"""Per price slot: a card (by index), then a wonder (at ``WONDER_PRICES`` + its index)."""
_KIND_RESOURCES: Final = tuple(sum(1 << r for r in options) for options in CHOICE_KINDS)
"""Each kind of "one of" producer's resources, a bit a resource."""
_MISSING_MASK: Final = (1 << _MISSING_BITS) - 1
_UNIT_PRICE_MASK: Final = (1 << _UNIT_PRICE_BITS) - 1
_ONE_BOUGHT: Final = 1 << _UNIT_PRICE_BITS
_DISJOINT_KINDS: Final = sum(len(options) for options in CHOICE_KINDS) == len(
    {r for options in CHOICE_KINDS for r in options})
"""Each resource made by at most one kind of "one of" producer (true of the base game):
then :func:`_saving` may hand producers out kind by kind."""
_MAX_PRICES: Final = 1 << 11
PRICE_MEMO: Final[tuple[dict[int, int], ...]] = tuple({} for _ in _COSTS)
"""Per price slot, its prices by the part of the buyer's price pair they depend on
(:data:`PAIR_BITS`), shared by every game (interpreted only)."""
PAIR_BITS: Final = tuple(cost.pair_bits for cost in _COSTS)
"""Per price slot, the bits of a buyer's price pair its price depends on."""


def slot_price(buyer: PlayerState, opponent: PlayerState, slot: int, pair: int = -1) -> int:
    """The price of a price slot (a card, or ``WONDER_PRICES`` + a wonder), the chain
    aside: what :func:`card_price` (no chain held) and :func:`wonder_price` say.

    Compiled, worked out from the two cities' price keys (:func:`price_by_words`), which
    costs less than a lookup. Interpreted, looked up by the parts of the two keys it
    depends on (``pair``: the buyer's ``price_pair``, if the caller keeps it) in a memo
    shared by every game, and worked out the first time as :func:`card_price` does: its
    loops over small ints cost the interpreter less than the whole-word arithmetic."""
    if COMPILED:
        return price_by_words(buyer, opponent, slot)
    cost = _COSTS[slot]
    if pair < 0:
        pair = price_pair(buyer.price_key, opponent.price_key)
    key = pair & cost.pair_bits
    memo = PRICE_MEMO[slot]
    price = memo.get(key, -1)
    if price < 0:
        discount = _discount(buyer.price_key, cost)
        price = cost.coins + _trade_price(buyer, opponent, cost.pairs, discount)
        if len(memo) >= _MAX_PRICES:  # a bound on memory
            memo.clear()
        memo[key] = price
    return price


def price_by_words(buyer: PlayerState, opponent: PlayerState, slot: int) -> int:
    """:func:`slot_price` worked out from the two cities' price keys, all five resources
    at once: the missing units at their unit prices, less what the buyer's "one of"
    producers and discount save on them."""
    cost = _COSTS[slot]
    mine: i64 = buyer.price_key
    # Each byte: 128 + need - production. Its top bit is set where the need is at least
    # the production, and the low bits there are the missing units.
    owed: i64 = (cost.needs | _GUARDS) - (mine & PRODUCTION_MASK)
    missing: i64 = owed & ((owed & _GUARDS) >> PRODUCTION_FIELD - 1) * _LOWS
    price: int = cost.coins
    if missing:
        # At most 3 units are missing of a resource: bit 0 and bit 1 of each byte's count.
        odd: i64 = (missing & _ONES) * _BYTE
        twice: i64 = (missing >> 1 & _ONES) * _BYTE
        theirs: i64 = opponent.price_key & (odd | twice)
        cheap: i64 = ((mine >> TRADE_ONE_SHIFT & _CHEAP_MASK) * _SPREAD & _ONES) * _BYTE
        # A unit costs 1, or 2 + the opponent's production.
        units: i64 = theirs + _TWOS & ~cheap | _ONES & cheap
        # Each byte: its unit price once or twice over (below 64). Their sum: fold the five
        # bytes onto the lowest.
        paid: i64 = (units & odd) + ((units & twice) << 1)
        trade: i64 = paid + (paid >> 2 * PRODUCTION_FIELD)
        trade += trade >> PRODUCTION_FIELD
        trade = trade + (paid >> 4 * PRODUCTION_FIELD) & _BYTE
        covering: i64 = mine & cost.covering
        if covering:
            bought: i64 = (missing << _UNIT_PRICE_BITS | units) & (odd | twice)
            trade -= _saved(buyer, opponent, cost, bought=bought, covering=covering,
                            trade=trade)
        price += trade
    return price


def _discount(key: i64, cost: _Cost) -> i64:
    """The units the discount that applies to ``cost`` (Masonry, Architecture) waives, from
    a price key (or its bits that may cover the cost)."""
    shift = cost.discount_shift
    return key >> shift & _COUNT_MASK if shift >= 0 else 0


def _saved(buyer: PlayerState, opponent: PlayerState, cost: _Cost, *, bought: i64,
           covering: i64, trade: i64) -> i64:
    """What "one of" producers and the discount (``covering``, bits of the buyer's key)
    save on ``bought`` (a byte a resource: missing units, unit price), which costs
    ``trade``."""
    discount = _discount(covering, cost)
    if not _DISJOINT_KINDS:
        return trade - _trade_price(buyer, opponent, cost.pairs, discount)
    return _saving(bought, covering, discount)


def _saving(bought: i64, covering: i64, discount: i64) -> i64:
    """What "one of" producers (their counts in ``covering``, a price key's bits) and
    ``discount`` units save on ``bought`` (a byte a resource: missing units, unit price),
    as :func:`_trade_price` hands them out: the dearest units first, each covered by a
    producer of its kind while one is left, else by the discount while it lasts. Kinds
    share no resource, so each kind's producers cover the dearest units of its resources,
    and the discount the dearest of the units left."""
    saved: i64 = 0
    for kind, shift in enumerate(CHOICE_SHIFTS):
        producers: i64 = covering >> shift & _COUNT_MASK
        while producers:
            dearest, bought = _take_dearest(bought, _KIND_RESOURCES[kind])
            if not dearest:
                break
            saved += dearest
            producers -= 1
    while discount:
        dearest, bought = _take_dearest(bought, _CHEAP_MASK)
        if not dearest:
            break
        saved += dearest
        discount -= 1
    return saved


def _take_dearest(bought: i64, resources: i64) -> tuple[i64, i64]:
    """The price of the dearest unit of ``resources`` (a bit a resource) still in
    ``bought`` (0: none), and ``bought`` without it."""
    best_price: i64 = 0
    best_unit: i64 = 0
    unit: i64 = _ONE_BOUGHT  # one missing unit of resource r
    field: i64 = bought
    r: i64 = 0
    while resources >> r:
        if resources >> r & 1 and field >> _UNIT_PRICE_BITS & _MISSING_MASK \
                and field & _UNIT_PRICE_MASK > best_price:
            best_price, best_unit = field & _UNIT_PRICE_MASK, unit
        field >>= PRODUCTION_FIELD
        unit <<= PRODUCTION_FIELD  # (not 1 << r * ...: mypyc shifts a literal as a C int)
        r += 1
    return best_price, bought - best_unit


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


_YELLOW: Final = int(Color.YELLOW)


def sale_value(seller: PlayerState) -> int:
    """Coins for discarding a card: 2 plus 1 per yellow card in the seller's city."""
    return 2 + seller.colors[_YELLOW]
