"""``/api/catalog``: every card, wonder and progress token as a browser shows it: each
effect as a kind with its figures (``effect_details``) and in words (``effects``). Built
once from the engine's card database."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.engine.cards import (
    CARDS,
    CHAIN_SYMBOLS,
    COLOR_NAMES,
    KIND_NAMES,
    RESOURCES,
    SCIENCE_SYMBOLS,
    TOKENS,
    WONDERS,
    Effects,
    PerItem,
)

from .delivery import CacheableJSON

router = APIRouter(prefix="/api", tags=["catalog"])

_KIND_WORDS = {"brown+grey": "brown and grey card", "wonder": "wonder",
               "coin_set_of_3": "set of 3 coins"}


def _kind(per: PerItem) -> str:
    name = KIND_NAMES[per.kind]
    return _KIND_WORDS.get(name, f"{name} card")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


_PLAIN_EFFECTS: tuple[tuple[str, str, bool], ...] = (
    ("build_from_discard", "Build a discarded card for free", False),
    ("progress_from_box", "Draw {n} progress tokens out of the game, keep 1", True),
    ("play_again", "Play again", False),
    ("wonder_resource_discount", "Wonders cost {n} fewer resources", True),
    ("blue_resource_discount", "Blue cards cost {n} fewer resources", True),
    ("receive_opponent_trade_coins", "Receive the coins your opponent pays for trading", False),
    ("points_per_progress_token", "{n} points per progress token", True),
    ("extra_shields_per_red_card", "Each later red card gives {n} more shield", True),
    ("wonders_play_again", "Every later wonder gives play again", False),
    ("coins_per_chain_build", "Take {n} coins on each chain build", True),
)
"""Effects told by one sentence around their figure (``amount`` when ``counted``), in the
order they are listed."""


def details(effects: Effects) -> list[dict[str, Any]]:
    """Each thing the effects do: a ``kind``, its figures, and the same in words (``text``).
    Points are given separately."""
    out: list[dict[str, Any]] = []

    def add(kind: str, text: str, **figures: Any) -> None:
        out.append({"kind": kind, "text": text, **figures})

    produced = {RESOURCES[r]: n for r, n in enumerate(effects.produce) if n}
    if produced:
        add("produce", "Produces " + ", ".join(f"{n} {r}" for r, n in produced.items()),
            resources=produced)
    if effects.produce_one_of:
        options = [RESOURCES[r] for r in effects.produce_one_of]
        add("produce_one_of", "Produces one of " + " / ".join(options) + " each turn",
            resources=options)
    if effects.trade_price_one:
        fixed = [RESOURCES[r] for r in effects.trade_price_one]
        add("trade_price_one", "Buy " + " and ".join(fixed) + " for 1 coin each",
            resources=fixed)
    if effects.shields:
        add("shields", f"+{_plural(effects.shields, 'shield')}", amount=effects.shields)
    if effects.science >= 0:
        symbol = SCIENCE_SYMBOLS[effects.science]
        add("science", f"Science symbol: {symbol.replace('_', ' ')}", symbol=symbol)
    if effects.coins:
        add("coins", f"Take {_plural(effects.coins, 'coin')}", amount=effects.coins)
    for kind, per, where in (("coins_per_own", effects.coins_per_own, "in your city"),
                             ("coins_per_most", effects.coins_per_most,
                              "in the city with the most")):
        if per is not None:
            add(kind, f"Take {_plural(per.amount, 'coin')} per {_kind(per)} {where}",
                amount=per.amount, per=KIND_NAMES[per.kind])
    if effects.points_per_most:
        per = effects.points_per_most
        add("points_per_most", f"{_plural(per.amount, 'point')} per {_kind(per)} in the city "
            "with the most, at the end", amount=per.amount, per=KIND_NAMES[per.kind])
    if effects.opponent_loses_coins:
        add("opponent_loses_coins",
            f"Opponent loses {_plural(effects.opponent_loses_coins, 'coin')}",
            amount=effects.opponent_loses_coins)
    if effects.destroy_opponent_card is not None:
        color = COLOR_NAMES[effects.destroy_opponent_card]
        add("destroy_opponent_card", f"Discard one {color} card of your opponent", color=color)
    for field, text, counted in _PLAIN_EFFECTS:
        value = getattr(effects, field)
        if value:
            add(field, text.format(n=value), **({"amount": value} if counted else {}))
    return out


def _effects(effects: Effects) -> dict[str, Any]:
    listed = details(effects)
    return {"effects": [item["text"] for item in listed], "effect_details": listed}


def _cost(coins: int, cost: tuple[int, ...]) -> dict[str, Any]:
    return {"coins": coins, "resources": {RESOURCES[r]: n for r, n in enumerate(cost) if n}}


@lru_cache(maxsize=1)
def catalog() -> dict[str, Any]:
    return {
        "resources": list(RESOURCES),
        "science_symbols": list(SCIENCE_SYMBOLS),
        "cards": {c.id: {
            "name": c.name, "age": c.age, "guild": c.is_guild, "color": COLOR_NAMES[c.color],
            "cost": _cost(c.cost_coins, c.cost),
            "chain_from": CHAIN_SYMBOLS[c.chain_from] if c.chain_from >= 0 else None,
            "chain_to": CHAIN_SYMBOLS[c.chain_to] if c.chain_to >= 0 else None,
            "points": c.effects.points, **_effects(c.effects),
        } for c in CARDS},
        "wonders": {w.id: {"name": w.name, "cost": _cost(w.cost_coins, w.cost),
                           "points": w.effects.points, **_effects(w.effects)}
                    for w in WONDERS},
        "tokens": {t.id: {"name": t.name, "points": t.effects.points, **_effects(t.effects)}
                   for t in TOKENS},
    }


@lru_cache(maxsize=1)
def _cacheable() -> CacheableJSON:
    return CacheableJSON(catalog())


@router.get("/catalog", response_model=dict[str, Any], responses={
    304: {"description": "Not modified: the catalog still has the ETag in `If-None-Match`"}})
async def get_catalog(request: Request) -> Response:
    """Every card, wonder and progress token with costs and effects in words. The same
    until the server is updated: sent with an ETag and `Cache-Control: no-cache`, so a
    browser keeps it and revalidates it (304) instead of fetching it again."""
    return _cacheable().response(request.headers)
