"""``Game.play``, the unchecked fast path for search, and the price memo behind
``legal_actions``: the same games as ``apply`` and the same prices as ``app.engine.costs``
works out from scratch, in both builds.

Games are played by the golden recorder's biased choosers (a favourite colour, wonders or
builds first, ...), so that rich cities turn up: "one of" producers, Masonry,
Architecture, Economy, the reserve cards, the Great Library's draw, destroyed cards.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from app.engine import (
    CARDS,
    TOKEN_BY_ID,
    WONDERS,
    BuildCard,
    BuildWonder,
    DecisionKind,
    DiscardCard,
    Forfeit,
    Game,
    Options,
    costs,
)
from app.engine.rng import Rng
from app.engine.scenario import give_token, new_position, place_cards, player
from app.engine.state import CHOICE_KINDS, WONDER_PRICES, Phase, PlayerState
from tests.engine.golden import record

pytestmark = pytest.mark.compiled

KINDS = sorted(record.CHOOSERS)
GAMES = 60


def _options(seed: int) -> Options:
    return record.OPTIONS[seed % len(record.OPTIONS)]


def _choose(game: Game, rng: random.Random, kind: str) -> int:
    """The index, in ``legal_actions``, of the action a player of ``kind`` takes."""
    legal = game.legal_actions()
    return legal.index(record.CHOOSERS[kind](legal, rng))


def _same(played: Game, applied: Game) -> None:
    assert played.legal_actions() == applied.legal_actions()
    assert played.decision == applied.decision and played.to_act == applied.to_act
    assert played.log == applied.log and played.played == applied.played
    assert [played.can_take_back(s) for s in (0, 1)] == \
        [applied.can_take_back(s) for s in (0, 1)]
    assert played.outcome() == applied.outcome()


@pytest.mark.parametrize("seed", range(GAMES))
def test_play_leaves_every_step_as_apply_does(seed: int) -> None:
    kind = KINDS[seed % len(KINDS)]
    applied = Game.new(seed, _options(seed))
    played = Game.new(seed, _options(seed))
    rng = random.Random(seed)
    while not applied.is_over:
        index = _choose(applied, rng, kind)
        applied.apply(applied.legal_actions()[index])
        assert played.play(played.legal_actions()[index]) is None
        assert played.state_hash() == applied.state_hash()
        _same(played, applied)
    assert played.is_over and played.outcome() is not None


@pytest.mark.parametrize("seed", range(0, GAMES, 3))
def test_clones_played_on_stay_apart_and_match_apply(seed: int) -> None:
    kind = KINDS[seed % len(KINDS)]
    game = Game.new(seed, _options(seed))
    rng = random.Random(seed)
    while not game.is_over:
        if rng.random() < 0.2:
            before = game.state_hash()
            fast, checked = game.clone(), game.clone()
            trial = random.Random(rng.random())
            while not fast.is_over:
                index = _choose(checked, trial, kind)
                checked.apply(checked.legal_actions()[index])
                fast.play(fast.legal_actions()[index])
            assert fast.state_hash() == checked.state_hash()
            _same(fast, checked)
            assert game.state_hash() == before
        game.play(game.legal_actions()[_choose(game, rng, kind)])
    assert game.state_hash() == Game.replay(seed, _options(seed), game.log).state_hash()


def _positions() -> Iterator[Game]:
    """Every position of seeded games of every kind of player, from the play phase on."""
    for seed in range(GAMES):
        game = Game.new(seed, _options(seed))
        rng = random.Random(seed)
        while not game.is_over:
            if game.state.phase != Phase.DRAFT:
                yield game
            game.play(game.legal_actions()[_choose(game, rng, KINDS[seed % len(KINDS)])])


def _memo_matches(game: Game) -> int:
    """Checks every card's and wonder's memoised price for both seats against the price
    worked out from scratch; returns how many were checked."""
    checked = 0
    for seat in (0, 1):
        me, them = game.state.players[seat], game.state.players[1 - seat]
        afresh = me.clone()
        afresh.update_fixed_prices()
        assert me.fixed_prices == afresh.fixed_prices, (seat, game.log)
        assert me.unbuilt == me.unbuilt_wonders(), (seat, game.log)
        for card in CARDS:
            assert game.card_price(seat, card.id) == costs.card_price(me, them, card.index), \
                (seat, card.id, game.log)
        for wonder in WONDERS:
            assert game.wonder_price(seat, wonder.id) == \
                costs.wonder_price(me, them, wonder.index), (seat, wonder.id, game.log)
        checked += len(CARDS) + len(WONDERS)
    return checked


def test_memoised_prices_are_the_prices_worked_out_from_scratch() -> None:
    seen = {"choice": 0, "masonry": 0, "architecture": 0, "economy": 0, "trade_one": 0,
            "destroyed": 0, "library": 0}
    masonry, architecture = TOKEN_BY_ID["masonry"].index, TOKEN_BY_ID["architecture"].index
    economy = TOKEN_BY_ID["economy"].index
    for number, game in enumerate(_positions()):
        decision = game.decision
        if decision is not None and decision.kind == DecisionKind.CHOOSE_LIBRARY_TOKEN:
            seen["library"] += 1
        if decision is not None and decision.kind == DecisionKind.DESTROY_CARD:
            seen["destroyed"] += 1
        for city in game.state.players:
            seen["choice"] += bool(city.choice_sets)
            seen["masonry"] += masonry in city.tokens
            seen["architecture"] += architecture in city.tokens
            seen["economy"] += economy in city.tokens
            seen["trade_one"] += any(city.trade_price_one)
        if number % 7 == 0:  # prices asked in a different order from legal_actions'
            _memo_matches(game)
    # The sample covers every way a price can be cut: otherwise it proves little.
    assert all(seen.values()), seen


def test_the_memo_follows_positions_arranged_by_hand() -> None:
    game = new_position(["palace", "senate", "pantheon", "gardens"], age=3,
                        cities={0: ["forum", "caravansery", "lumber_yard", "customs_house"],
                                1: ["quarry", "glassblower", "press", "brickyard"]})
    assert _memo_matches(game)
    give_token(game, 0, "masonry")
    give_token(game, 0, "architecture")
    assert _memo_matches(game)
    place_cards(game, 1, ["shelf_quarry", "sawmill"])
    assert player(game, 1).production[0] == 2
    assert _memo_matches(game)
    twin = game.clone()
    twin.play(next(a for a in twin.legal_actions() if isinstance(a, BuildCard)))
    assert _memo_matches(twin) and _memo_matches(game)


def _random_city(rng: random.Random) -> PlayerState:
    city = PlayerState()
    city.production = [rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in city.production]
    city.trade_price_one = [rng.random() < 0.2 for _ in city.trade_price_one]
    city.choice_sets = sorted((options for options in CHOICE_KINDS
                               for _ in range(rng.choice((0, 0, 1, 2)))), key=len)
    city.wonder_resource_discount = rng.choice((0, 0, 2))
    city.blue_resource_discount = rng.choice((0, 0, 2))
    city.update_price_key()
    return city


def test_prices_from_the_keys_are_the_solver_s_for_any_pair_of_cities() -> None:
    """Cities drawn at random, beyond what games reach: every card's and wonder's price,
    from the memo (interpreted) and worked out from the price keys (what the compiled
    engine does), is the cost solver's."""
    rng = random.Random(15)
    for _ in range(300):
        me, them = _random_city(rng), _random_city(rng)
        for card in CARDS:
            price = costs.card_price(me, them, card.index)
            assert costs.slot_price(me, them, card.index) == price, card.id
            assert costs.price_by_words(me, them, card.index) == price, card.id
        for wonder in WONDERS:
            slot = WONDER_PRICES + wonder.index
            price = costs.wonder_price(me, them, wonder.index)
            assert costs.slot_price(me, them, slot) == price, wonder.id
            assert costs.price_by_words(me, them, slot) == price, wonder.id


def test_a_chain_lost_gives_its_card_its_price_back() -> None:
    """Statue of Zeus and Circus Maximus destroy no card that shows a chain symbol, but the
    engine would handle it: the card it chains to costs its price again."""
    for card in (c for c in CARDS if c.chain_from >= 0):
        city = PlayerState()
        city.add_chain(card.chain_from)
        assert city.fixed_prices[card.index] == 0
        city.remove_chain(card.chain_from)
        assert city.fixed_prices[card.index] == (-1 if card.needs else card.cost_coins)
        assert city.fixed_prices == PlayerState().fixed_prices and city.chains == 0


def test_a_city_beyond_the_price_key_is_refused() -> None:
    city = PlayerState()
    city.production[2] = 8
    with pytest.raises(ValueError, match="price key"):
        city.update_price_key()


def test_play_hands_a_forfeit_to_apply() -> None:
    game = Game.new(3, Options(first_player=0))
    game.play(Forfeit(1, "resigned"))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 0 and len(game.log) == 1


@pytest.mark.parametrize("seed", range(6))
def test_a_playout_is_play_with_choices_drawn_from_its_generator(seed: int) -> None:
    """``playout`` plays what a loop of ``play`` with ``rng.below`` choices plays, stops
    after ``limit`` actions, and leaves the game's own generator to the game."""
    game = Game.new(seed, _options(seed))
    by_hand, ours = game.clone(), Rng(seed)
    theirs = Rng(seed)
    while not by_hand.is_over:
        choices = by_hand.legal_actions()
        by_hand.play(choices[theirs.below(len(choices))])
    played = game.clone()
    assert played.playout(ours) == len(by_hand.log) and played.is_over
    assert played.state_hash() == by_hand.state_hash() and ours.state == theirs.state
    short = game.clone()
    assert short.playout(Rng(seed), limit=5) == 5 and len(short.log) == 5
    assert Game.new(seed, _options(seed)).state_hash() == game.state_hash()


@pytest.mark.parametrize("seed", range(6))
def test_a_weighed_playout_draws_the_kind_of_action_first(seed: int) -> None:
    """With weights for building, building a wonder and discarding, a playout plays legal
    actions of the weighed kinds only where a turn offers them, and the same generator
    state gives the same game."""
    start = Game.new(seed, _options(seed))
    for kinds, wanted in (((1, 0, 0), BuildCard), ((0, 1, 0), BuildWonder),
                          ((0, 0, 1), DiscardCard)):
        game = start.clone()
        checked = Game.new(seed, _options(seed))
        game.playout(Rng(seed), kinds=kinds)
        assert game.is_over
        for action in game.log:
            offered = checked.legal_actions()
            assert action in offered
            if type(action) in (BuildCard, BuildWonder, DiscardCard):
                # The wanted kind whenever the turn offers it, some other kind only if not.
                assert type(action) is wanted or not any(type(a) is wanted for a in offered)
            checked.apply(action)
        assert checked.state_hash() == game.state_hash()
    mixed, again = start.clone(), start.clone()
    mixed.playout(Rng(seed), kinds=(6, 3, 1))
    again.playout(Rng(seed), kinds=(6, 3, 1))
    assert mixed.log == again.log and mixed.state_hash() == again.state_hash()
    builds = sum(type(a) is BuildCard for a in mixed.log)
    discards = sum(type(a) is DiscardCard for a in mixed.log)
    assert builds > discards
