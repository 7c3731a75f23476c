"""``/api/catalog``: every card, wonder and progress token as a browser shows it, with
each effect in words. Built once from the engine's card database."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fastapi import APIRouter

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

router = APIRouter(prefix="/api", tags=["catalog"])

_KIND_WORDS = {"brown+grey": "brown and grey card", "wonder": "wonder",
               "coin_set_of_3": "set of 3 coins"}


def _kind(per: PerItem) -> str:
    name = KIND_NAMES[per.kind]
    return _KIND_WORDS.get(name, f"{name} card")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe(effects: Effects) -> list[str]:
    """Each thing the effects do, in words (points are listed separately)."""
    out = []
    produced = [f"{n} {RESOURCES[r]}" for r, n in enumerate(effects.produce) if n]
    if produced:
        out.append("Produces " + ", ".join(produced))
    if effects.produce_one_of:
        out.append("Produces one of " + " / ".join(RESOURCES[r] for r in effects.produce_one_of)
                   + " each turn")
    if effects.trade_price_one:
        out.append("Buy " + " and ".join(RESOURCES[r] for r in effects.trade_price_one)
                   + " for 1 coin each")
    if effects.shields:
        out.append(f"+{_plural(effects.shields, 'shield')}")
    if effects.science >= 0:
        out.append(f"Science symbol: {SCIENCE_SYMBOLS[effects.science].replace('_', ' ')}")
    if effects.coins:
        out.append(f"Take {_plural(effects.coins, 'coin')}")
    if effects.coins_per_own:
        out.append(f"Take {_plural(effects.coins_per_own.amount, 'coin')} per "
                   f"{_kind(effects.coins_per_own)} in your city")
    if effects.coins_per_most:
        out.append(f"Take {_plural(effects.coins_per_most.amount, 'coin')} per "
                   f"{_kind(effects.coins_per_most)} in the city with the most")
    if effects.points_per_most:
        out.append(f"{_plural(effects.points_per_most.amount, 'point')} per "
                   f"{_kind(effects.points_per_most)} in the city with the most, at the end")
    if effects.opponent_loses_coins:
        out.append(f"Opponent loses {_plural(effects.opponent_loses_coins, 'coin')}")
    if effects.destroy_opponent_card is not None:
        out.append(f"Discard one {COLOR_NAMES[effects.destroy_opponent_card]} card "
                   "of your opponent")
    if effects.build_from_discard:
        out.append("Build a discarded card for free")
    if effects.progress_from_box:
        out.append(f"Draw {effects.progress_from_box} progress tokens out of the game, keep 1")
    if effects.play_again:
        out.append("Play again")
    if effects.wonder_resource_discount:
        out.append(f"Wonders cost {effects.wonder_resource_discount} fewer resources")
    if effects.blue_resource_discount:
        out.append(f"Blue cards cost {effects.blue_resource_discount} fewer resources")
    if effects.receive_opponent_trade_coins:
        out.append("Receive the coins your opponent pays for trading")
    if effects.points_per_progress_token:
        out.append(f"{effects.points_per_progress_token} points per progress token")
    if effects.extra_shields_per_red_card:
        out.append("Each later red card gives 1 more shield")
    if effects.wonders_play_again:
        out.append("Every later wonder gives play again")
    if effects.coins_per_chain_build:
        out.append(f"Take {effects.coins_per_chain_build} coins on each chain build")
    return out


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
            "points": c.effects.points, "effects": describe(c.effects),
        } for c in CARDS},
        "wonders": {w.id: {"name": w.name, "cost": _cost(w.cost_coins, w.cost),
                           "points": w.effects.points, "effects": describe(w.effects)}
                    for w in WONDERS},
        "tokens": {t.id: {"name": t.name, "points": t.effects.points,
                          "effects": describe(t.effects)} for t in TOKENS},
    }


@router.get("/catalog")
async def get_catalog() -> dict[str, Any]:
    """Every card, wonder and progress token with costs and effects in words."""
    return catalog()
