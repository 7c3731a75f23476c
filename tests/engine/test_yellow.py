"""Yellow (commercial) cards, built through real actions.

Positions are first-game scenario games; Age II and III cards are played in their own age,
reached with ``scenario.start_age`` (the engine's own ``GameState.lay_out_age``: the real
layout of that age's deck, without replaying earlier ages), and the structure is cut down to
the cards a test plays (``set_structure``).

Rules (rules.md): Tavern 4 coins, Brewery 6; the Reserves and the Customs House fix the price of
their resources at 1 coin; Forum and Caravansery produce one of their resources each turn and do
not raise the opponent's price; Chamber of Commerce 3 coins per grey card, Port 2 per brown,
Armory 1 per red, Lighthouse 1 per yellow (itself included), Arena 2 per built wonder, all in
the builder's own city, once, at build, and 3 points each. Selling a card: 2 + 1 per yellow card.
"""

from __future__ import annotations

import pytest

from app.engine import BuildCard, DiscardCard, Game, view
from app.engine.cards import CARD_BY_ID, CARDS, Color
from app.engine.events import CardDiscarded, CoinsGained
from app.engine.scenario import (
    mark_wonder_built,
    new_game,
    place_cards,
    player,
    set_coins,
    set_structure,
)

pytestmark = pytest.mark.compiled


def game_at_age(age: int, seed: int = 5) -> Game:
    """A first-game scenario, seat 0 to play, in ``age`` (see the module docstring)."""
    game = new_game(seed, first_player=0, age=age)
    assert game.state.age == age
    assert game.to_act == 0
    return game


def unit_price(game: Game, seat: int, resource: str) -> int:
    return int(view(game, seat)["players"][seat]["unit_prices"][resource])


# ---------------------------------------------------------------------- Tavern and Brewery

@pytest.mark.parametrize(("card", "age", "coins"), [("tavern", 1, 4), ("brewery", 2, 6)])
def test_tavern_and_brewery_give_coins_once(card: str, age: int, coins: int) -> None:
    game = game_at_age(age)
    set_structure(game, [card, "lumber_yard", "clay_pool"])
    events = game.apply(BuildCard(card), seat=0)
    assert player(game, 0).coins == 7 + coins
    assert player(game, 1).coins == 7
    assert CoinsGained(seat=0, coins=coins) in events
    # Nothing more on later turns.
    game.apply(DiscardCard("lumber_yard"), seat=1)
    game.apply(DiscardCard("clay_pool"), seat=0)
    assert player(game, 0).coins == 7 + coins + 3   # the sale: 2 + 1 yellow card


# ------------------------------------------------------------------ Reserves, Customs House

@pytest.mark.parametrize(
    ("reserve", "resource", "opponent_makes", "test_card"),
    [
        ("stone_reserve", "stone", ["quarry", "stone_pit"], "baths"),       # Baths: 1 stone
        ("clay_reserve", "clay", ["clay_pool", "clay_pit"], "garrison"),    # Garrison: 1 clay
        ("wood_reserve", "wood", ["lumber_yard", "logging_camp"], "stable"),  # Stable: 1 wood
    ],
)
def test_reserve_fixes_the_price_of_its_resource_at_one_coin(
        reserve: str, resource: str, opponent_makes: list[str], test_card: str) -> None:
    game = game_at_age(1)
    place_cards(game, 1, opponent_makes)          # the opponent makes 2: normal price 4
    set_structure(game, [reserve, "altar", test_card, "theater"])
    assert unit_price(game, 0, resource) == 4

    game.apply(BuildCard(reserve), seat=0)
    assert player(game, 0).coins == 7 - 3         # a Reserve costs 3 coins
    assert unit_price(game, 0, resource) == 1
    assert unit_price(game, 1, resource) == 2     # the opponent's price does not change

    game.apply(DiscardCard("altar"), seat=1)
    before = player(game, 0).coins
    game.apply(BuildCard(test_card), seat=0)
    assert player(game, 0).coins == before - 1


def test_reserve_price_applies_to_every_unit_bought() -> None:
    game = game_at_age(2)
    place_cards(game, 0, ["stone_reserve"])
    place_cards(game, 1, ["shelf_quarry"])        # 2 stone: normal price 4 a unit
    set_structure(game, ["walls", "statue"])      # Walls: 2 stone
    game.apply(BuildCard("walls"), seat=0)
    assert player(game, 0).coins == 7 - 2


def test_customs_house_fixes_glass_and_papyrus_at_one_coin() -> None:
    game = game_at_age(2)
    place_cards(game, 1, ["glassworks", "press"])  # normal price 3 each
    set_structure(game, ["customs_house", "altar", "caravansery", "theater"])
    player(game, 0).coins = 10

    game.apply(BuildCard("customs_house"), seat=0)
    assert player(game, 0).coins == 10 - 4        # Customs House costs 4 coins
    assert (unit_price(game, 0, "glass"), unit_price(game, 0, "papyrus")) == (1, 1)
    assert (unit_price(game, 0, "wood"), unit_price(game, 0, "stone")) == (2, 2)

    game.apply(DiscardCard("altar"), seat=1)
    game.apply(BuildCard("caravansery"), seat=0)  # 2 coins + glass + papyrus
    assert player(game, 0).coins == 6 - (2 + 1 + 1)


# ------------------------------------------------------------------- Forum and Caravansery

def test_forum_produces_glass_or_papyrus_and_does_not_raise_the_opponents_price() -> None:
    game = game_at_age(2)
    place_cards(game, 0, ["clay_pool", "lumber_yard"])
    set_structure(game, ["forum", "caravansery", "temple", "theater"])
    set_coins(game, {0: 10, 1: 10})

    game.apply(BuildCard("forum"), seat=0)        # 3 coins + 1 clay (made)
    assert player(game, 0).coins == 7

    # Seat 1 still pays 2 a unit: 2 + glass 2 + papyrus 2.
    assert unit_price(game, 1, "glass") == 2 and unit_price(game, 1, "papyrus") == 2
    game.apply(BuildCard("caravansery"), seat=1)
    assert player(game, 1).coins == 10 - 6

    # Seat 0: the Temple needs wood (Lumber Yard) and papyrus (the Forum): free.
    assert game.card_payment(0, "temple").total == 0
    game.apply(BuildCard("temple"), seat=0)
    assert player(game, 0).coins == 7


def test_forum_covers_one_unit_per_turn_only() -> None:
    game = game_at_age(2)
    place_cards(game, 0, ["forum"])
    # Caravansery: 2 coins + glass + papyrus; the Forum makes one, the other is bought at 2.
    assert game.card_payment(0, "caravansery").total == 2 + 2
    # Glass or papyrus, whichever is needed.
    assert game.card_payment(0, "apothecary").total == 0     # 1 glass
    assert game.card_payment(0, "workshop").total == 0       # 1 papyrus
    assert game.card_payment(0, "school").total == 2 + 2     # wood + 2 papyrus: 2 bought
    place_cards(game, 1, ["glassworks"])           # glass now 3 for seat 0, papyrus 2
    assert game.card_payment(0, "caravansery").total == 2 + 2   # the Forum takes the glass


def test_caravansery_produces_wood_clay_or_stone_and_does_not_raise_the_opponents_price() -> None:
    game = game_at_age(2)
    place_cards(game, 0, ["glassworks", "press"])
    set_structure(game, ["caravansery", "statue", "rostrum", "altar"])

    game.apply(BuildCard("caravansery"), seat=0)  # 2 coins, glass and papyrus made
    assert player(game, 0).coins == 5
    assert [unit_price(game, 1, r) for r in ("wood", "clay", "stone")] == [2, 2, 2]

    game.apply(BuildCard("statue"), seat=1)       # 2 clay at 2 each
    assert player(game, 1).coins == 7 - 4

    # Rostrum: wood + stone. The Caravansery makes one; the other is bought at 2.
    game.apply(BuildCard("rostrum"), seat=0)
    assert player(game, 0).coins == 5 - 2


# --------------------------------------------------------- Age III yellow cards: coins per card

def test_chamber_of_commerce_three_coins_per_grey_card_in_own_city() -> None:
    game = game_at_age(3)
    place_cards(game, 0, ["drying_room", "forum"])  # 1 grey; papyrus 2 = Drying Room + Forum
    place_cards(game, 1, ["press", "glassworks", "glassblower"])  # 3 grey: not counted
    set_structure(game, ["chamber_of_commerce", "palace"])
    events = game.apply(BuildCard("chamber_of_commerce"), seat=0)
    assert player(game, 0).coins == 7 + 3
    assert CoinsGained(seat=0, coins=3) in events


def test_chamber_of_commerce_counts_every_grey_card() -> None:
    game = game_at_age(3)
    place_cards(game, 0, ["drying_room", "press", "glassworks"])  # 3 grey
    set_structure(game, ["chamber_of_commerce", "palace"])
    game.apply(BuildCard("chamber_of_commerce"), seat=0)
    assert player(game, 0).coins == 7 + 9


def test_port_two_coins_per_brown_card_in_own_city() -> None:
    game = game_at_age(3)
    place_cards(game, 0, ["lumber_yard", "clay_pool", "glassworks", "press"])  # 2 brown, 2 grey
    place_cards(game, 1, ["quarry", "stone_pit", "logging_camp", "clay_pit", "sawmill"])  # 5 brown
    set_structure(game, ["port", "palace"])
    game.apply(BuildCard("port"), seat=0)
    assert player(game, 0).coins == 7 + 4


def test_armory_one_coin_per_red_card_in_own_city() -> None:
    game = game_at_age(3)
    place_cards(game, 0, ["shelf_quarry", "glassworks", "guard_tower", "stable"])  # 2 red
    place_cards(game, 1, ["garrison", "palisade", "walls", "archery_range"])       # 4 red
    set_structure(game, ["armory", "palace"])
    game.apply(BuildCard("armory"), seat=0)
    assert player(game, 0).coins == 7 + 2
    assert game.state.pawn == 0, "the Armory has no shield"


def test_lighthouse_one_coin_per_yellow_card_itself_included() -> None:
    game = game_at_age(3)
    # 2 yellow cards; the Tavern chains to the Lighthouse.
    place_cards(game, 0, ["tavern", "stone_reserve"])
    place_cards(game, 1, ["clay_reserve", "wood_reserve", "forum", "caravansery"])
    set_structure(game, ["lighthouse", "palace"])
    payment = game.card_payment(0, "lighthouse")
    assert payment.chain and payment.total == 0
    game.apply(BuildCard("lighthouse"), seat=0)
    assert player(game, 0).coins == 7 + 3


def test_arena_two_coins_per_wonder_built_in_own_city() -> None:
    game = game_at_age(3)
    place_cards(game, 0, ["brewery"])             # chain: the Arena is free
    mark_wonder_built(game, 0, "the_pyramids", "lumber_yard")
    mark_wonder_built(game, 0, "the_great_lighthouse", "clay_pool")
    mark_wonder_built(game, 1, "the_colossus", "quarry")
    mark_wonder_built(game, 1, "piraeus", "stone_pit")
    mark_wonder_built(game, 1, "circus_maximus", "press")
    set_structure(game, ["arena", "palace"])
    game.apply(BuildCard("arena"), seat=0)
    assert player(game, 0).coins == 7 + 4


def test_arena_with_no_wonder_built_gives_nothing() -> None:
    game = game_at_age(3)
    place_cards(game, 0, ["brewery"])
    set_structure(game, ["arena", "palace"])
    game.apply(BuildCard("arena"), seat=0)
    assert player(game, 0).coins == 7


# ------------------------------------------------------------------------------- points

def test_age_three_yellow_cards_score_three_points_the_others_none() -> None:
    game = game_at_age(3)
    zero = ["tavern", "stone_reserve", "clay_reserve", "wood_reserve", "brewery", "forum",
            "caravansery", "customs_house"]
    three = ["chamber_of_commerce", "port", "armory", "lighthouse"]
    place_cards(game, 0, zero + three)
    set_structure(game, ["arena", "palace"])      # the Arena chains from the Brewery
    game.apply(BuildCard("arena"), seat=0)
    game.apply(DiscardCard("palace"), seat=1)     # the last card: the game ends
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.scores[0].yellow == 3 * 5
    assert outcome.scores[1].yellow == 0


@pytest.mark.parametrize("card", ["chamber_of_commerce", "port", "armory", "lighthouse",
                                  "arena"])
def test_each_age_three_yellow_card_is_worth_three_points(card: str) -> None:
    game = game_at_age(3)
    place_cards(game, 0, [c for c in ("tavern", "brewery") if c != card])
    set_structure(game, [card, "palace"])
    player(game, 0).coins = 30
    game.apply(BuildCard(card), seat=0)
    game.apply(DiscardCard("palace"), seat=1)
    outcome = game.outcome()
    assert outcome is not None
    # The Tavern and the Brewery score nothing.
    assert outcome.scores[0].yellow == 3


# --------------------------------------------------------------------------- sale value

@pytest.mark.parametrize(
    "yellow_cards",
    [[], ["tavern"], ["tavern", "stone_reserve", "clay_reserve"]],
)
def test_selling_a_card_gives_two_coins_plus_one_per_yellow_card(yellow_cards: list[str]) -> None:
    game = game_at_age(1)
    place_cards(game, 0, [*yellow_cards, "lumber_yard", "glassworks"])  # other colours: not counted
    set_structure(game, ["wood_reserve", "altar"])  # selling a yellow card: it does not count
    assert view(game, 0)["players"][0]["sale_value"] == 2 + len(yellow_cards)
    events = game.apply(DiscardCard("wood_reserve"), seat=0)
    assert player(game, 0).coins == 7 + 2 + len(yellow_cards)
    assert isinstance(events[0], CardDiscarded)
    assert events[0].coins == 2 + len(yellow_cards)
    assert CARD_BY_ID["wood_reserve"].index in game.state.discard


def test_opponents_yellow_cards_do_not_raise_the_sale_value() -> None:
    game = game_at_age(1)
    place_cards(game, 1, ["tavern", "stone_reserve"])
    set_structure(game, ["altar", "theater"])
    game.apply(DiscardCard("altar"), seat=0)
    assert player(game, 0).coins == 9
    game.apply(DiscardCard("theater"), seat=1)
    assert player(game, 1).coins == 11


def test_all_yellow_cards_are_covered_here() -> None:
    yellow = {c.id for c in CARDS if c.color == Color.YELLOW}
    assert yellow == {
        "tavern", "brewery", "stone_reserve", "clay_reserve", "wood_reserve", "customs_house",
        "forum", "caravansery", "chamber_of_commerce", "port", "armory", "lighthouse", "arena",
    }
