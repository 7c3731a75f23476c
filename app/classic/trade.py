"""What a purchase from the two neighbours costs: every split of coins (to the left, to the
right) that no other split beats on both sides.

A seat covers a cost with its own production (fixed units, then its either/or and private
choice units, one unit each a turn) and buys the rest, unit by unit, from a neighbour that
produces it: a neighbour's fixed units and its either/or units, either resource of those
whatever the owner uses (RO L968-969). Each unit bought from a side costs that side's price
for its kind (2, or 1 with a discount). The solver is exact: it tries every setting of the
flexible units that matter (identical units taken as one multiset; a unit never does
better unused) and solves each setting resource by resource; answers are memoised by the
normalised market. :func:`exhaustive_splits` is the plain enumeration it is tested
against.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from .cards import RAW
from .state import City

Split = tuple[int, int]
"""Coins to the left neighbour, coins to the right neighbour."""


@dataclass(frozen=True)
class Market:
    """What a seat may use and buy for one cost: everything the solver reads."""

    need: tuple[int, ...]
    """Units still missing after the seat's own fixed production, per resource."""
    own: tuple[int, ...]
    """The seat's own flexible units (masks): either/or cards and private choices."""
    left_fixed: tuple[int, ...]
    left_either: tuple[int, ...]
    right_fixed: tuple[int, ...]
    right_either: tuple[int, ...]
    prices: tuple[int, int, int, int]
    """Price of a unit: raw from the left, manufactured from the left, raw from the right,
    manufactured from the right."""


def pareto(splits: Iterable[Split]) -> tuple[Split, ...]:
    """The splits no other split beats on both sides (or equals), sorted by coins to the
    left."""
    best: list[Split] = []
    for split in sorted(set(splits)):  # left ascending, then right ascending
        if not best or split[1] < best[-1][1]:
            best.append(split)
    return tuple(best)


Stock = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""What the neighbours offer: left fixed units, left either/or units, the same on the
right."""
_MEMO: dict[tuple[object, ...], tuple[Split, ...]] = {}
_MEMO_LIMIT: Final = 200_000


def splits(market: Market) -> tuple[Split, ...]:
    """Every non-dominated split that buys what ``market.need`` lacks; () when the
    neighbours cannot supply it."""
    if not any(market.need):
        return ((0, 0),)
    need = market.need
    wanted = 0
    for resource, count in enumerate(need):
        if count:
            wanted |= 1 << resource
    # Units that cannot serve any missing resource play no part.
    own = tuple(sorted(m for m in market.own if m & wanted))
    left_either = tuple(sorted(m for m in market.left_either if m & wanted))
    right_either = tuple(sorted(m for m in market.right_either if m & wanted))
    left_fixed = tuple(min(a, b) for a, b in zip(market.left_fixed, need, strict=True))
    right_fixed = tuple(min(a, b) for a, b in zip(market.right_fixed, need, strict=True))
    key = (need, own, left_fixed, left_either, right_fixed, right_either, market.prices)
    found = _MEMO.get(key)
    if found is None:
        found = _search(need, own, (left_fixed, left_either, right_fixed, right_either),
                        market.prices)
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        _MEMO[key] = found
    return found


def solve(cost: tuple[int, ...], city: City, left: City, right: City) -> tuple[Split, ...]:
    """:func:`splits` for ``city`` buying ``cost`` from ``left`` and ``right``, read from
    the cities directly (no :class:`Market`, no memo: the game memoises by city keys)."""
    produce = city.produce
    need = [0] * 7
    wanted = 0
    for resource in range(7):
        missing = cost[resource] - produce[resource]
        if missing > 0:
            need[resource] = missing
            wanted |= 1 << resource
    if not wanted:
        return ((0, 0),)
    prices = (city.prices[0], city.prices[1], city.prices[2], city.prices[3])
    own = tuple(m for m in (*city.either, *city.choice) if m & wanted)
    left_either = tuple(m for m in left.either if m & wanted)
    right_either = tuple(m for m in right.either if m & wanted)
    if not (own or left_either or right_either):
        return _fixed(need, left.produce, right.produce, prices)
    # The same purchase met again (other cities, other games): normalised, memoised.
    stock = (tuple([min(a, b) for a, b in zip(left.produce, need, strict=True)]),
             tuple(sorted(left_either)),
             tuple([min(a, b) for a, b in zip(right.produce, need, strict=True)]),
             tuple(sorted(right_either)))
    wants = tuple(need)
    mine = tuple(sorted(own))
    key = (wants, mine, *stock, prices)
    found = _MEMO.get(key)
    if found is None:
        found = _search(wants, mine, stock, prices)
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        _MEMO[key] = found
    return found


def _groups(units: tuple[int, ...], wanted: int) -> list[tuple[int, list[tuple[int, ...]]]]:
    """Identical flexible units grouped: for each mask, every multiset of wanted resources
    its units may stand for (a unit never does better unused: covering or offering one more
    unit never costs more)."""
    out: list[tuple[int, list[tuple[int, ...]]]] = []
    for mask in sorted(set(units)):
        options = [r for r in range(7) if mask >> r & 1 and wanted >> r & 1]
        out.append((mask, list(itertools.combinations_with_replacement(options,
                                                                       units.count(mask)))))
    return out


def _fixed(need: list[int], left: Sequence[int], right: Sequence[int],
           prices: tuple[int, int, int, int]) -> tuple[Split, ...]:
    """The non-dominated splits when every unit is fixed: per resource, each number bought
    from the left (the rest from the right), summed resource by resource."""
    found: tuple[Split, ...] = ((0, 0),)
    for resource in range(7):
        missing = need[resource]
        if not missing:
            continue
        if missing > left[resource] + right[resource]:
            return ()
        raw = resource in RAW
        left_price = prices[0] if raw else prices[1]
        right_price = prices[2] if raw else prices[3]
        low = max(0, missing - right[resource])
        high = min(missing, left[resource])
        options = [(k * left_price, (missing - k) * right_price) for k in range(low, high + 1)]
        if len(found) == 1:
            a, b = found[0]
            found = pareto([(a + c, b + d) for c, d in options])
        else:
            found = pareto([(a + c, b + d) for a, b in found for c, d in options])
    return found


def _search(need: tuple[int, ...], own: tuple[int, ...], stock: Stock,
            prices: tuple[int, int, int, int]) -> tuple[Split, ...]:
    """Every way to set the flexible units, each solved with the units fixed."""
    left_fixed, left_either, right_fixed, right_either = stock
    wanted = 0
    for resource, count in enumerate(need):
        if count:
            wanted |= 1 << resource
    groups = [(0, g) for g in _groups(own, wanted)] + [(1, g) for g in _groups(left_either,
                                                                             wanted)] \
        + [(2, g) for g in _groups(right_either, wanted)]
    if not groups:
        return _fixed(list(need), list(left_fixed), list(right_fixed), prices)
    found: list[Split] = []
    for setting in itertools.product(*[options for _, (_, options) in groups]):
        missing = list(need)
        left = list(left_fixed)
        right = list(right_fixed)
        for (owner, _), chosen in zip(groups, setting, strict=True):
            for resource in chosen:
                if owner == 0:
                    if missing[resource]:
                        missing[resource] -= 1
                elif owner == 1:
                    left[resource] += 1
                else:
                    right[resource] += 1
        found.extend(_fixed(missing, left, right, prices))
    return pareto(found)


def _choices(mask: int) -> list[int]:
    """What a flexible unit may be: one of its resources, or left unused (-1)."""
    return [-1, *[r for r in range(7) if mask >> r & 1]]


def exhaustive_splits(market: Market) -> tuple[Split, ...]:
    """The same answer as :func:`splits` by plain enumeration: every way to set each
    flexible unit (own and both neighbours'), then every number of units of each resource
    bought from the left, the rest from the right. For tests; slow."""
    flexible = [*market.own, *market.left_either, *market.right_either]
    own_count, left_count = len(market.own), len(market.left_either)
    found: set[Split] = set()
    for setting in itertools.product(*[_choices(mask) for mask in flexible]):
        own = [0] * 7
        left = list(market.left_fixed)
        right = list(market.right_fixed)
        for index, resource in enumerate(setting):
            if resource < 0:
                continue
            if index < own_count:
                own[resource] += 1
            elif index < own_count + left_count:
                left[resource] += 1
            else:
                right[resource] += 1
        per_resource: list[list[Split]] = []
        for resource in range(7):
            missing = max(0, market.need[resource] - own[resource])
            raw = resource in RAW
            left_price = market.prices[0] if raw else market.prices[1]
            right_price = market.prices[2] if raw else market.prices[3]
            options = [(bought * left_price, (missing - bought) * right_price)
                       for bought in range(min(missing, left[resource]) + 1)
                       if missing - bought <= right[resource]]
            if not options:
                break
            per_resource.append(options)
        else:
            for combination in itertools.product(*per_resource):
                found.add((sum(a for a, _ in combination), sum(b for _, b in combination)))
    return pareto(found)
