"""``/api/catalog``: every card, wonder and progress token as a browser shows it: each
effect as a kind with its figures (``effect_details``), which the page words from its own
catalog (``effect.<kind>``), and the names in the language asked for (``?lang=``, from
``app/engine/data/names/<code>.toml``; English is the card database's). Built once per
language from the engine's card database."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from app import i18n
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
)

from .delivery import CacheableJSON
from .refusals import RefusalBody

router = APIRouter(prefix="/api", tags=["catalog"])

_PLAIN_EFFECTS: tuple[tuple[str, bool], ...] = (
    ("build_from_discard", False),
    ("progress_from_box", True),
    ("play_again", False),
    ("wonder_resource_discount", True),
    ("blue_resource_discount", True),
    ("receive_opponent_trade_coins", False),
    ("points_per_progress_token", True),
    ("extra_shields_per_red_card", True),
    ("wonders_play_again", False),
    ("coins_per_chain_build", True),
)
"""Effects that are one field of :class:`Effects`, in the order they are listed, and
whether they carry their value as ``amount`` (otherwise they are just true)."""

EFFECT_KINDS: tuple[str, ...] = (
    "produce", "produce_one_of", "trade_price_one", "shields", "science", "coins",
    "coins_per_own", "coins_per_most", "points_per_most", "opponent_loses_coins",
    "destroy_opponent_card", *(field for field, _ in _PLAIN_EFFECTS),
)
"""Every ``kind`` of ``effect_details``; a page words each (``effect.<kind>`` in its
catalog) from the figures beside it."""


def details(effects: Effects) -> list[dict[str, Any]]:
    """Each thing the effects do: a ``kind`` (one of :data:`EFFECT_KINDS`) and its
    figures: ``resources`` (``{resource: units}`` produced, or the resources to choose
    from or bought for 1), ``amount``, ``symbol`` (science), ``per`` (what a per-item
    effect counts: a colour, ``brown+grey``, ``wonder`` or ``coin_set_of_3``), ``color``.
    Points are given separately. No words: the page has them."""
    out: list[dict[str, Any]] = []

    def add(kind: str, **figures: Any) -> None:
        out.append({"kind": kind, **figures})

    produced = {RESOURCES[r]: n for r, n in enumerate(effects.produce) if n}
    if produced:
        add("produce", resources=produced)
    if effects.produce_one_of:
        add("produce_one_of", resources=[RESOURCES[r] for r in effects.produce_one_of])
    if effects.trade_price_one:
        add("trade_price_one", resources=[RESOURCES[r] for r in effects.trade_price_one])
    if effects.shields:
        add("shields", amount=effects.shields)
    if effects.science >= 0:
        add("science", symbol=SCIENCE_SYMBOLS[effects.science])
    if effects.coins:
        add("coins", amount=effects.coins)
    for kind, per in (("coins_per_own", effects.coins_per_own),
                      ("coins_per_most", effects.coins_per_most),
                      ("points_per_most", effects.points_per_most)):
        if per is not None:
            add(kind, amount=per.amount, per=KIND_NAMES[per.kind])
    if effects.opponent_loses_coins:
        add("opponent_loses_coins", amount=effects.opponent_loses_coins)
    if effects.destroy_opponent_card is not None:
        add("destroy_opponent_card", color=COLOR_NAMES[effects.destroy_opponent_card])
    for field, counted in _PLAIN_EFFECTS:
        value = getattr(effects, field)
        if value:
            add(field, **({"amount": value} if counted else {}))
    return out


def _effects(effects: Effects) -> dict[str, Any]:
    return {"effect_details": details(effects)}


def _cost(coins: int, cost: tuple[int, ...]) -> dict[str, Any]:
    return {"coins": coins, "resources": {RESOURCES[r]: n for r, n in enumerate(cost) if n}}


NAMES_DIR = Path(__file__).resolve().parents[1] / "engine" / "data" / "names"
"""One file per language but English: ``[cards]``, ``[wonders]``, ``[tokens]``, each id = name."""


@cache
def names(code: str) -> dict[str, dict[str, str]]:
    """The names of every card, wonder and token in a language (ours, or the pseudo-locale:
    English marked)."""
    english = {"cards": {c.id: c.name for c in CARDS}, "wonders": {w.id: w.name for w in WONDERS},
               "tokens": {t.id: t.name for t in TOKENS}}
    if code == i18n.DEFAULT:
        return english
    if code == i18n.PSEUDO.code:
        return {kind: {id_: i18n.pseudo(name) for id_, name in table.items()}
                for kind, table in english.items()}
    with (NAMES_DIR / f"{code}.toml").open("rb") as source:
        translated: dict[str, dict[str, str]] = tomllib.load(source)
    return translated


@cache
def catalog(code: str = i18n.DEFAULT) -> dict[str, Any]:
    named = names(code)
    return {
        "resources": list(RESOURCES),
        "science_symbols": list(SCIENCE_SYMBOLS),
        "cards": {c.id: {
            "name": named["cards"][c.id], "age": c.age, "guild": c.is_guild,
            "color": COLOR_NAMES[c.color],
            "cost": _cost(c.cost_coins, c.cost),
            "chain_from": CHAIN_SYMBOLS[c.chain_from] if c.chain_from >= 0 else None,
            "chain_to": CHAIN_SYMBOLS[c.chain_to] if c.chain_to >= 0 else None,
            "points": c.effects.points, **_effects(c.effects),
        } for c in CARDS},
        "wonders": {w.id: {"name": named["wonders"][w.id], "cost": _cost(w.cost_coins, w.cost),
                           "points": w.effects.points, **_effects(w.effects)}
                    for w in WONDERS},
        "tokens": {t.id: {"name": named["tokens"][t.id], "points": t.effects.points,
                          **_effects(t.effects)}
                   for t in TOKENS},
    }


LanguageCode = Annotated[str, Query(
    max_length=8, description=f"the names' language: {', '.join(i18n.LANGUAGES)}")]


@cache
def _cacheable(code: str) -> CacheableJSON:
    return CacheableJSON(catalog(code))


@router.get("/catalog", response_model=dict[str, Any], responses={
    304: {"description": "Not modified: the catalog still has the ETag in `If-None-Match`"},
    404: {"model": RefusalBody, "description": "No such language (`not_found`)"},
    422: {"model": RefusalBody, "description": "`lang` is not a short code"}})
async def get_catalog(request: Request, lang: LanguageCode = i18n.DEFAULT) -> Response:
    """Every card, wonder and progress token with costs and effects (kinds and figures),
    named in the language of `lang` (another than ours is `not_found`). The same until the
    server is updated: sent with an ETag and `Cache-Control: no-cache`, so a browser keeps
    it and revalidates it (304) instead of fetching it again."""
    i18n.require_offered(request, lang)
    return _cacheable(lang).response(request.headers)
