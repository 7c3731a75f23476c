"""A seat's view prices every accessible face-up card and each of its unbuilt wonders, on
either seat's turn, with the engine's own payments; nobody else's view has prices.

Seeded random games (both wonder selections) are played through; after every action the
views of both seats and of a spectator are checked.
"""

from __future__ import annotations

import collections
import random
from typing import Any

import pytest

from app.engine import Game, Options, seat_prices, view
from app.engine.cards import CARDS, WONDERS
from app.engine.costs import Payment, card_payment, wonder_payment
from app.engine.state import DecisionKind, Phase
from tests.factories import hidden_ids, strings_in

pytestmark = pytest.mark.compiled

SEEDS = range(0, 240, 12)
"""20 games, half of them first games (fixed wonders), the rest drafted."""
MAX_ACTIONS = 200


def _expected(payment: Payment, coins: int) -> dict[str, Any]:
    return {"total": payment.total, "coins": payment.coins, "trade": payment.trade,
            "chain": payment.chain, "affordable": payment.total <= coins}


def _check_prices(game: Game, seat: int, tally: collections.Counter[str]) -> None:
    state = game.state
    seen = view(game, seat)
    if state.phase != Phase.PLAY:
        assert "prices" not in seen, "prices exist only in the play phase"
        return
    prices = seen["prices"]
    assert prices == seat_prices(game, seat)
    me, them = state.players[seat], state.players[1 - seat]

    face_up = {CARDS[state.structure[slot]].index: CARDS[state.structure[slot]].id
               for slot in state.accessible if state.face_up[slot]}
    assert set(prices["cards"]) == set(face_up.values()), "exactly the accessible face-up cards"
    for index, card_id in face_up.items():
        payment = card_payment(me, them, index)
        assert prices["cards"][card_id] == _expected(payment, me.coins), card_id
        assert payment.total == game.card_payment(seat, card_id).total
        if payment.chain:
            assert payment.total == 0
            tally["chain"] += 1
        tally["trade"] += payment.trade > 0
        tally["unaffordable"] += payment.total > me.coins

    unbuilt = [w["wonder"] for w in seen["players"][seat]["wonders"] if not w["built"]]
    assert set(prices["wonders"]) == set(unbuilt) == {WONDERS[w].id for w in me.unbuilt_wonders()}
    for w in me.unbuilt_wonders():
        payment = wonder_payment(me, them, w)
        assert prices["wonders"][WONDERS[w].id] == _expected(payment, me.coins)
        tally["wonder"] += 1

    decision = game.decision
    if decision is not None and decision.kind == DecisionKind.PLAY_CARD \
            and decision.seat == seat:
        # On the seat's own turn, "affordable" is exactly what the rules let it build.
        legal = {str(action) for action in game.legal_actions()}
        for card_id, price in prices["cards"].items():
            assert price["affordable"] == (f"build:{card_id}" in legal), card_id
        for wonder_id, price in prices["wonders"].items():
            usable = any(n.startswith(f"wonder:{wonder_id}:") for n in legal)
            assert price["affordable"] == usable, wonder_id
        tally["own_turn"] += 1
    else:
        tally["other_turn"] += 1


def _check_audiences(game: Game) -> None:
    assert "prices" not in view(game, None), "a spectator's view has no prices"
    assert "prices" not in view(game, None, reveal=True)
    for seat in (0, 1):
        # Ids used as keys are scanned too: no face-down card, nothing hidden, is priced.
        seen = strings_in(view(game, seat).get("prices", {}))
        assert not seen & hidden_ids(game, seat)
        if game.state.age:
            face_down = {CARDS[c].id for slot, c in enumerate(game.state.structure)
                         if c >= 0 and not game.state.face_up[slot]}
            assert not seen & face_down


@pytest.mark.parametrize("seed", SEEDS)
def test_prices_are_the_engines_payments_at_every_moment_of_the_play_phase(
        seed: int) -> None:
    options = Options(wonder_selection="first_game" if seed % 24 == 0 else "draft")
    game = Game.new(seed, options)
    chooser = random.Random(seed)
    tally: collections.Counter[str] = collections.Counter()
    for _ in range(MAX_ACTIONS):
        for seat in (0, 1):
            _check_prices(game, seat, tally)
        _check_audiences(game)
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions()))
    assert game.is_over
    for seat in (0, 1):
        _check_prices(game, seat, tally)
    assert tally["own_turn"] and tally["other_turn"] and tally["wonder"]


def test_the_sample_covers_chains_trading_and_unaffordable_cards() -> None:
    tally: collections.Counter[str] = collections.Counter()
    for seed in SEEDS:
        game = Game.new(seed, Options())
        chooser = random.Random(seed)
        while not game.is_over:
            for seat in (0, 1):
                _check_prices(game, seat, tally)
            game.apply(chooser.choice(game.legal_actions()))
    assert tally["chain"] and tally["trade"] and tally["unaffordable"], tally


def test_a_chain_makes_a_card_free() -> None:
    """The first chain met in a seeded game: the price says free, through the chain."""
    for seed in SEEDS:
        game = Game.new(seed, Options())
        chooser = random.Random(seed)
        while not game.is_over:
            for seat in (0, 1):
                prices = view(game, seat).get("prices", {"cards": {}})["cards"]
                for card_id, price in prices.items():
                    if price["chain"]:
                        assert (price["total"], price["trade"], price["affordable"]) == (0, 0, True)
                        assert game.card_payment(seat, card_id).chain
                        return
            game.apply(chooser.choice(game.legal_actions()))
    raise AssertionError("no chain in the sample")
