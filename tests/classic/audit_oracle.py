"""An independent oracle for the classic engine, written from the reference tables
(../shared/reference/7wonders/cards.csv, wonders.csv) and the first-edition rulebooks only.

It reads nothing of ``app.classic`` but what a client sees: ``view(game, seat)`` JSON.
Cities are plain dicts as the view gives them (``board``, ``side``, ``cards``,
``stages_built``, ``coins``, ``tokens``).
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import product
from pathlib import Path
from typing import Any

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "7wonders"
if not REFERENCE.exists():  # a worktree under /work/wt/<name>
    REFERENCE = Path("/work/shared/reference/7wonders")

RAW = ("wood", "clay", "stone", "ore")
MANUFACTURED = ("glass", "textile", "papyrus")
SYMBOLS = ("compass", "gear", "tablet")
City = dict[str, Any]
Split = tuple[int, int]


def _rows(name: str) -> list[dict[str, str]]:
    with open(REFERENCE / name, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


CARD_ROWS = _rows("cards.csv")
CARDS: dict[str, dict[str, str]] = {row["id"]: row for row in CARD_ROWS}
STAGES: dict[tuple[str, str], list[dict[str, str]]] = {}
for _row in _rows("wonders.csv"):
    STAGES.setdefault((_row["board"], _row["side"]), []).append(_row)
STARTING = {board: rows[0]["starting_resource"] for (board, _), rows in STAGES.items()}


def resources(text: str) -> Counter[str]:
    """``wood:1;ore:2`` as a multiset."""
    out: Counter[str] = Counter()
    for part in filter(None, text.split(";")):
        name, count = part.split(":")
        out[name] += int(count)
    return out


def effects(text: str) -> list[list[str]]:
    return [part.split(":") for part in filter(None, text.split(";"))]


def card_cost(card: str) -> tuple[int, Counter[str]]:
    row = CARDS[card]
    return int(row["cost_coins"]), resources(row["cost_resources"])


def built_stages(city: City) -> list[dict[str, str]]:
    return STAGES[(city["board"], city["side"])][: city["stages_built"]]


def next_stage(city: City) -> dict[str, str] | None:
    rows = STAGES[(city["board"], city["side"])]
    return rows[city["stages_built"]] if city["stages_built"] < len(rows) else None


def _all_effects(city: City) -> Iterable[list[str]]:
    for card in city["cards"]:
        yield from effects(CARDS[card]["effect"])
    for stage in built_stages(city):
        yield from effects(stage["effect"])


def production(city: City, *, sellable: bool) -> tuple[Counter[str], list[tuple[str, ...]]]:
    """Fixed units and one-of-several units of a city; ``sellable``: only what a neighbour
    may buy (the board's resource, brown and grey cards: RO L222-231, L968)."""
    fixed: Counter[str] = Counter({STARTING[city["board"]]: 1})
    options: list[tuple[str, ...]] = []
    for card in city["cards"]:
        for effect in effects(CARDS[card]["effect"]):
            if effect[0] == "produce":
                fixed[effect[1]] += int(effect[2])
            elif effect[0] == "produce_either" or (effect[0] == "produce_choice" and not sellable):
                options.append(tuple(effect[1].split("|")))
    if not sellable:
        for stage in built_stages(city):
            for effect in effects(stage["effect"]):
                if effect[0] == "produce_choice":
                    options.append(tuple(effect[1].split("|")))
    return fixed, options


def unit_prices(city: City) -> dict[str, tuple[int, int]]:
    """Resource -> (price from the left neighbour, price from the right one)."""
    names = set(city["cards"])
    olympia_b1 = city["board"] == "olympia" and city["side"] == "B" and city["stages_built"] >= 1
    raw_left = 1 if "west_trading_post" in names or olympia_b1 else 2
    raw_right = 1 if "east_trading_post" in names or olympia_b1 else 2
    man = 1 if "marketplace" in names else 2
    out = dict.fromkeys(RAW, (raw_left, raw_right))
    out.update(dict.fromkeys(MANUFACTURED, (man, man)))
    return out


def _pareto(points: Iterable[Split]) -> set[Split]:
    pts = set(points)
    return {p for p in pts
            if not any(q != p and q[0] <= p[0] and q[1] <= p[1] for q in pts)}


def _minus(need: Counter[str], have: Counter[str]) -> Counter[str]:
    return Counter({k: v - have[k] for k, v in need.items() if v - have[k] > 0})


def purchase_splits(city: City, left: City, right: City, cost: Counter[str]) -> set[Split]:
    """Every non-dominated (coins to left, coins to right) that covers ``cost``; empty when
    nothing does."""
    return set(_purchase(_key(city), _key(left, True), _key(right, True),
                         tuple(sorted(cost.items()))))


def _key(city: City, sellable: bool = False) -> tuple[Any, ...]:
    fixed, options = production(city, sellable=sellable)
    prices = unit_prices(city) if not sellable else {}
    return (tuple(sorted(fixed.items())), tuple(sorted(options)), tuple(sorted(prices.items())))


@lru_cache(maxsize=200_000)
def _purchase(me: tuple[Any, ...], left: tuple[Any, ...], right: tuple[Any, ...],
              cost_items: tuple[tuple[str, int], ...]) -> frozenset[Split]:
    cost = Counter(dict(cost_items))
    fixed, options, price_items = Counter(dict(me[0])), me[1], dict(me[2])
    need = _minus(cost, fixed)
    if not need:
        return frozenset({(0, 0)})
    useful = [tuple(r for r in opt if r in need) for opt in options]
    useful = [opt for opt in useful if opt]
    remainders = set()
    for pick in product(*useful):
        rest = _minus(need, Counter(pick))
        remainders.add(tuple(sorted(rest.items())))
    found: set[Split] = set()
    for rest_items in remainders:
        found |= _buy(Counter(dict(rest_items)), left, right, price_items)
    return frozenset(_pareto(found))


def _buy(rest: Counter[str], left: tuple[Any, ...], right: tuple[Any, ...],
         prices: dict[str, tuple[int, int]]) -> set[Split]:
    if not rest:
        return {(0, 0)}
    sides = []
    for seller in (left, right):
        fixed, options = Counter(dict(seller[0])), seller[1]
        useful = [tuple(r for r in opt if r in rest) for opt in options]
        useful = [opt for opt in useful if opt]
        sides.append({tuple(sorted((fixed + Counter(p)).items())) for p in product(*useful)})
    out: set[Split] = set()
    for lstock_items, rstock_items in product(*sides):
        lstock, rstock = Counter(dict(lstock_items)), Counter(dict(rstock_items))
        combos: set[Split] = {(0, 0)}
        for res, count in rest.items():
            pl, pr = prices[res]
            ways = {(a * pl, (count - a) * pr) for a in range(count + 1)
                    if a <= lstock[res] and count - a <= rstock[res]}
            combos = {(x + a, y + b) for x, y in combos for a, b in ways}
            if not combos:
                break
        out |= combos
    return out


def expected_actions(city: City, left: City, right: City, hand: Sequence[str], *,
                     free_build: bool, chainable: set[str] | None = None) -> set[str]:
    """The legal actions (notation) of a seat picking from ``hand``, with every
    non-dominated affordable split; ``free_build``: Olympia A's build is available;
    ``chainable``: the cards it built in an earlier age (RO L292, PT L214), by default
    all its cards."""
    out: set[str] = set()
    names = set(city["cards"])
    coins = city["coins"]
    stage = next_stage(city)
    stage_splits: set[Split] = set()
    if stage is not None:
        stage_splits = {s for s in purchase_splits(city, left, right,
                                                   resources(stage["cost_resources"]))
                        if sum(s) <= coins}
    for card in hand:
        out.add(f"discard:{card}")
        for split in stage_splits:
            out.add(f"wonder:{card}:{split[0]}:{split[1]}")
        if card in names:
            continue
        chains = set(filter(None, CARDS[card]["chain_from"].split("|")))
        if chains & (names if chainable is None else chainable):
            out.add(f"build:{card}:0:0")
            continue
        bank, cost = card_cost(card)
        for split in purchase_splits(city, left, right, cost):
            if sum(split) + bank <= coins:
                out.add(f"build:{card}:{split[0]}:{split[1]}")
        if free_build:
            out.add(f"olympia:{card}")
    return out


# ---- military and scoring ----

def shields(city: City) -> int:
    total = 0
    for effect in _all_effects(city):
        if effect[0] == "shields":
            total += int(effect[1])
    return total


def colour_count(city: City, colour: str) -> int:
    return sum(1 for card in city["cards"] if CARDS[card]["color"] == colour)


def science_score(counts: Sequence[int], wildcards: int) -> int:
    best = 0
    for extra in product(range(3), repeat=wildcards):
        c = list(counts)
        for i in extra:
            c[i] += 1
        best = max(best, sum(x * x for x in c) + 7 * min(c))
    return best


def _guild_points(guild: str, city: City, left: City, right: City) -> int:
    neighbours = (left, right)
    effect = effects(CARDS[guild]["effect"])[0]
    if effect[0] != "points_per":
        return 0
    what, per, whose = effect[1], int(effect[2]), effect[3]
    def count(c: City) -> int:
        n = 0
        for kind in what.split("+"):
            if kind == "wonder_stage":
                n += c["stages_built"]
            elif kind == "defeat_token":
                n += sum(1 for t in c["tokens"] if t < 0)
            else:
                n += colour_count(c, kind)
        return n
    cities: list[City] = []
    if "self" in whose:
        cities.append(city)
    if "neighbours" in whose:
        cities.extend(neighbours)
    return per * sum(count(c) for c in cities)


def score(city: City, left: City, right: City) -> dict[str, int]:
    """A city's final points by category, Olympia B's copy and wildcards maximised."""
    sheet = {"military": sum(city["tokens"]), "treasury": city["coins"] // 3}
    sheet["wonder"] = sum(int(s["points"]) for s in built_stages(city))
    sheet["civilian"] = sum(int(CARDS[c]["points"]) for c in city["cards"]
                            if CARDS[c]["color"] == "blue")
    commerce = 0
    for card in city["cards"]:
        if CARDS[card]["color"] != "yellow":
            continue
        for effect in effects(CARDS[card]["effect"]):
            if effect[0] == "points_per":
                kind, per = effect[1], int(effect[2])
                n = city["stages_built"] if kind == "wonder_stage" else colour_count(city, kind)
                commerce += per * n
    sheet["commerce"] = commerce
    symbols = [0, 0, 0]
    wild = 0
    for effect in _all_effects(city):
        if effect[0] == "science":
            symbols[SYMBOLS.index(effect[1])] += 1
        elif effect[0] == "science_choice":
            wild += 1
    guilds = [c for c in city["cards"] if CARDS[c]["color"] == "purple"]
    copies: list[str | None] = [None]
    if any(e[0] == "copy_neighbour_guild" for s in built_stages(city)
           for e in effects(s["effect"])):
        # RO L705-706 "as if she had built that Guild": the copy is a purple card of
        # her city (her Shipowners counts it) and a name she owns cannot be built again
        copies = [c for c in left["cards"] + right["cards"]
                  if CARDS[c]["color"] == "purple" and c not in city["cards"]] or [None]
    best: tuple[int, int, int] | None = None
    for copy in copies:
        extra_wild = 1 if copy == "scientists_guild" else 0
        copied_city = dict(city)
        if copy is not None:
            copied_city = dict(city, cards=[*city["cards"], copy])
        gpoints = sum(_guild_points(g, copied_city, left, right)
                      for g in guilds + ([copy] if copy else []))
        spoints = science_score(symbols, wild + extra_wild)
        if best is None or gpoints + spoints > best[0] + best[1]:
            best = (gpoints, spoints, 0)
    assert best is not None
    sheet["guilds"], sheet["science"] = best[0], best[1]
    sheet["total"] = sum(v for k, v in sheet.items())
    return sheet


def conflict_tokens(mine: int, other: int, age: int) -> list[int]:
    if mine > other:
        return [(1, 3, 5)[age - 1]]
    if mine < other:
        return [-1]
    return []
