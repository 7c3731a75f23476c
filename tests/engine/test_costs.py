"""What building costs: every trading / cost example of the rulebook (figures from the
rulebook cross-check, section 13), reserves, choice producers, Masonry / Architecture,
Economy, Urbanism, chains and unaffordable builds.

Positions are built with app.engine.scenario; prices are checked with the pure functions of
app.engine.costs and, where a player would see it, through a real ``Game.apply`` with the
coins of both players afterwards. Seat 0 plays Jelena, seat 1 Dušan unless said otherwise.
"""

from __future__ import annotations

import pytest

from app.engine import (
    CARD_BY_ID,
    WONDER_BY_ID,
    BuildCard,
    BuildWonder,
    DiscardCard,
    Game,
    IllegalActionError,
    costs,
)
from app.engine.events import CardBuilt, CardDiscarded, CoinsGained, Event, WonderBuilt
from app.engine.scenario import (
    finish_age,
    give_token,
    make_accessible,
    new_game,
    new_position,
    place_card,
    player,
    set_structure,
    set_wonders,
)
from app.engine.state import PlayerState

pytestmark = pytest.mark.compiled

WOOD, CLAY, STONE, GLASS, PAPYRUS = range(5)
FILLER = "altar"
"""A spare card left in the structure so that the action under test does not end the age."""


# ---------------------------------------------------------------- helpers

def position(
    cards: dict[int, list[str]] | None = None,
    structure: tuple[str, ...] = (),
    coins: dict[int, int] | None = None,
    first_player: int = 0,
) -> Game:
    """Age I, ``first_player`` to act; each seat's city holds ``cards``; the structure holds
    only ``structure`` (plus a filler), all accessible."""
    return new_position([*structure, FILLER] if structure else None, cities=cards, coins=coins,
                        first_player=first_player)


def card_payment(game: Game, seat: int, card_id: str) -> costs.Payment:
    return costs.card_payment(player(game, seat), player(game, 1 - seat),
                              CARD_BY_ID[card_id].index)


def card_price(game: Game, seat: int, card_id: str) -> int:
    return costs.card_price(player(game, seat), player(game, 1 - seat), CARD_BY_ID[card_id].index)


def wonder_payment(game: Game, seat: int, wonder_id: str) -> costs.Payment:
    return costs.wonder_payment(player(game, seat), player(game, 1 - seat),
                                WONDER_BY_ID[wonder_id].index)


def wonder_price(game: Game, seat: int, wonder_id: str) -> int:
    return costs.wonder_price(player(game, seat), player(game, 1 - seat),
                              WONDER_BY_ID[wonder_id].index)


def coins(game: Game) -> tuple[int, int]:
    return player(game, 0).coins, player(game, 1).coins


def built_payment(events: list[Event]) -> dict[str, object]:
    built = [e for e in events if isinstance(e, CardBuilt | WonderBuilt)]
    assert len(built) == 1, events
    return built[0].payment.to_json()


def units_bought(payment: costs.Payment) -> int:
    return sum(n for _, n, _ in payment.bought)


# ---------------------------------------------------------------- rulebook examples

def test_fortifications_example_costs_5() -> None:
    # SR:222: Jelena makes 2 stone, Dušan 1 clay and no papyrus: clay 3 + papyrus 2 = 5.
    game = position({0: ["quarry", "stone_pit"], 1: ["clay_pool"]}, ("fortifications",),
                    coins={0: 5})
    payment = card_payment(game, 0, "fortifications")
    assert payment.total == 5
    assert (payment.coins, payment.trade, payment.chain) == (0, 5, False)
    assert payment.bought == ((CLAY, 1, 3), (PAPYRUS, 1, 2))
    assert payment.from_choice == payment.waived == ()
    assert payment.to_opponent == 0

    events = game.apply("build:fortifications")
    assert coins(game) == (0, 7)
    assert built_payment(events) == payment.to_json()
    assert CARD_BY_ID["fortifications"].index in player(game, 0).cards
    paid = built_payment(events)
    assert paid["total"] == 5
    assert paid["bought"] == [{"resource": "clay", "units": 1, "unit_price": 3},
                              {"resource": "papyrus", "units": 1, "unit_price": 2}]


def test_pure_functions_on_bare_cities() -> None:
    # The cost functions need nothing but the two cities.
    jelena, dusan = PlayerState(), PlayerState()
    jelena.production[STONE] = 2
    dusan.production[CLAY] = 1
    fortifications = CARD_BY_ID["fortifications"].index
    assert costs.card_price(jelena, dusan, fortifications) == 5
    assert costs.card_payment(jelena, dusan, fortifications).bought == (
        (CLAY, 1, 3), (PAPYRUS, 1, 2))
    # Colossus (3 clay + glass) for Dušan, who makes 1 clay: 2 clay x 2 + glass 2.
    colossus = WONDER_BY_ID["the_colossus"].index
    assert costs.wonder_price(dusan, jelena, colossus) == 6
    assert costs.wonder_payment(dusan, jelena, colossus).bought == ((CLAY, 2, 2), (GLASS, 1, 2))
    assert costs.sale_value(jelena) == 2


@pytest.mark.parametrize("stone_cards", [["quarry", "stone_pit"], ["shelf_quarry"]])
def test_aqueduct_example_costs_12(stone_cards: list[str]) -> None:
    # SR:226: Dušan makes no stone, Jelena 2 stone with brown cards: 3 x (2 + 2) = 12.
    # The Shelf Quarry shows two stone symbols and counts 2.
    game = position({1: stone_cards}, ("aqueduct",), coins={0: 12})
    payment = card_payment(game, 0, "aqueduct")
    assert payment.total == 12
    assert payment.bought == ((STONE, 3, 4),)
    game.apply(BuildCard("aqueduct"))
    assert coins(game) == (0, 7)


def test_each_stone_costs_4_against_two_stone() -> None:
    # SR:215-218: Dušan pays 4 coins for each stone he buys, one or more.
    game = position({1: ["quarry", "stone_pit"]})
    assert card_price(game, 0, "baths") == 4
    assert card_price(game, 0, "walls") == 8
    assert costs.unit_prices(player(game, 0), player(game, 1))[STONE] == 4


def test_third_stone_costs_2_when_the_opponent_makes_none() -> None:
    # SR:218: Jelena makes 2 stone and needs a third; Dušan makes none: she pays 2.
    game = position({0: ["quarry", "stone_pit"]}, ("aqueduct",), coins={0: 7})
    payment = card_payment(game, 0, "aqueduct")
    assert payment.total == 2
    assert payment.bought == ((STONE, 1, 2),)
    game.apply(BuildCard("aqueduct"))
    assert coins(game) == (5, 7)


def test_caravansery_example_costs_7() -> None:
    # SR:242: Caravansery = 2 coins + glass + papyrus; Dušan makes 1 glass: 2 + 3 + 2 = 7.
    game = position({1: ["glassworks"]}, ("caravansery",), coins={0: 7})
    payment = card_payment(game, 0, "caravansery")
    assert (payment.coins, payment.trade, payment.total) == (2, 5, 7)
    assert payment.bought == ((GLASS, 1, 3), (PAPYRUS, 1, 2))
    game.apply(BuildCard("caravansery"))
    assert coins(game) == (0, 7)


def test_dusan_production_example() -> None:
    # SR:190-196: Dušan makes 1 stone, 3 clay, 1 papyrus: Baths (stone) and Garrison (clay)
    # are his for nothing, the Apothecary (glass) only by trading.
    game = position({0: ["quarry", "clay_pool", "brickyard", "press"]},
                    ("baths", "garrison", "apothecary"), coins={0: 0})
    assert player(game, 0).production == [0, 3, 1, 0, 1]
    assert card_price(game, 0, "baths") == 0
    assert card_price(game, 0, "garrison") == 0
    assert card_price(game, 0, "apothecary") == 2
    legal = {str(a) for a in game.legal_actions()}
    assert {"build:baths", "build:garrison"} <= legal
    assert "build:apothecary" not in legal
    assert "discard:apothecary" in legal
    game.apply(BuildCard("baths"))
    assert coins(game) == (0, 7)


def test_sale_example_gives_4_coins() -> None:
    # SR:301: Jelena sells the Aqueduct with 2 yellow cards (Tavern, Clay Reserve): 2 + 2.
    game = position({0: ["tavern", "clay_reserve"]}, ("aqueduct",))
    assert costs.sale_value(player(game, 0)) == 4
    events = game.apply(DiscardCard("aqueduct"))
    assert coins(game) == (11, 7)
    assert game.state.discard == [CARD_BY_ID["aqueduct"].index]
    assert CARD_BY_ID["aqueduct"].index not in player(game, 0).cards
    assert [e.coins for e in events if isinstance(e, CardDiscarded)] == [4]


def test_a_sold_yellow_card_does_not_count_itself() -> None:
    game = position({}, ("tavern",))
    game.apply(DiscardCard("tavern"))
    assert coins(game) == (9, 7)


def test_chain_baths_to_aqueduct_is_free() -> None:
    # SR:256: Dušan has the Baths; in Age II he builds the Aqueduct free.
    game = position({0: ["baths"], 1: ["shelf_quarry"]}, ("aqueduct",), coins={0: 0})
    payment = card_payment(game, 0, "aqueduct")
    assert payment.chain is True
    assert payment.total == 0
    assert payment.bought == ()
    assert "build:aqueduct" in {str(a) for a in game.legal_actions()}
    events = game.apply(BuildCard("aqueduct"))
    assert coins(game) == (0, 7)
    assert built_payment(events)["chain"] is True


def test_chain_palisade_to_fortifications_skips_an_age() -> None:
    # SR:258: Jelena has the Palisade (Age I); in Age III she builds Fortifications free.
    game = new_game(seed=5)
    finish_age(game, starter=0)   # Age I, then Age II, played out with real discards
    finish_age(game, starter=0)
    assert game.state.age == 3
    place_card(game, 0, "palisade")
    place_card(game, 1, "shelf_quarry")
    set_structure(game, ["fortifications", FILLER])
    player(game, 0).coins = 0
    assert card_payment(game, 0, "fortifications").chain is True
    events = game.apply(BuildCard("fortifications"))
    assert player(game, 0).coins == 0
    assert built_payment(events)["total"] == 0


def test_chain_garrison_to_barracks_costs_no_coins() -> None:
    # Barracks costs 3 coins, or nothing at all with the Garrison's sword.
    game = position({0: ["garrison"]}, ("barracks",), coins={0: 0})
    payment = card_payment(game, 0, "barracks")
    assert (payment.coins, payment.trade, payment.total, payment.chain) == (0, 0, 0, True)
    game.apply(BuildCard("barracks"))
    assert coins(game) == (0, 7)
    assert CARD_BY_ID["barracks"].index in player(game, 0).cards


def test_barracks_without_garrison_costs_3_coins() -> None:
    game = position({}, ("barracks",), coins={0: 2})
    assert card_price(game, 0, "barracks") == 3
    assert "build:barracks" not in {str(a) for a in game.legal_actions()}
    player(game, 0).coins = 3
    game.apply(BuildCard("barracks"))
    assert coins(game) == (0, 7)


# ---------------------------------------------------------------- trading price

def test_yellow_and_wonder_production_do_not_raise_the_price() -> None:
    game = position({1: ["caravansery", "forum"]})
    assert costs.unit_prices(player(game, 0), player(game, 1)) == [2, 2, 2, 2, 2]


def test_only_missing_resources_are_bought() -> None:
    # Production covers what it can; the rest is bought at the opponent's price.
    game = position({0: ["lumber_yard"], 1: ["sawmill", "glassworks"]})
    payment = card_payment(game, 0, "courthouse")  # 2 wood + 1 glass
    assert payment.bought == ((WOOD, 1, 4), (GLASS, 1, 3))
    assert payment.total == 7


@pytest.mark.parametrize(
    ("reserve", "opponent", "card", "with_reserve", "without"),
    [
        ("stone_reserve", "shelf_quarry", "aqueduct", 3, 12),
        ("clay_reserve", "brickyard", "statue", 2, 8),
        ("wood_reserve", "sawmill", "stable", 1, 4),
        ("customs_house", "glassblower", "laboratory", 4, 8),  # wood 2 + 2 glass
        ("customs_house", "drying_room", "school", 4, 8),  # wood 2 + 2 papyrus
    ],
)
def test_reserves_fix_the_price_at_1(
    reserve: str, opponent: str, card: str, with_reserve: int, without: int
) -> None:
    plain = position({1: [opponent]})
    assert card_price(plain, 0, card) == without
    game = position({0: [reserve], 1: [opponent]})
    assert card_price(game, 0, card) == with_reserve
    traded = set(CARD_BY_ID[reserve].effects.trade_price_one)
    bought = card_payment(game, 0, card).bought
    assert [price for r, _, price in bought if r in traded] == [1]
    assert all(price == 2 for r, _, price in bought if r not in traded)


def test_a_reserve_fixes_only_its_own_resource() -> None:
    game = position({0: ["stone_reserve"], 1: ["brickyard", "shelf_quarry"]})
    assert costs.unit_prices(player(game, 0), player(game, 1)) == [2, 4, 1, 2, 2]
    # Circus: 2 clay + 2 stone.
    assert card_payment(game, 0, "circus").bought == ((CLAY, 2, 4), (STONE, 2, 1))


def test_stone_reserve_built_then_used_next_turn() -> None:
    game = position({1: ["shelf_quarry"]}, ("stone_reserve", "guard_tower", "aqueduct"),
                    coins={0: 6})
    game.apply(BuildCard("stone_reserve"))
    assert coins(game) == (3, 7)
    game.apply(DiscardCard("guard_tower"))  # Dušan's turn
    assert card_price(game, 0, "aqueduct") == 3
    game.apply(BuildCard("aqueduct"))
    assert coins(game) == (0, 9)


# ---------------------------------------------------------------- choice producers

def test_caravansery_covers_the_expensive_resource() -> None:
    # Rostrum: wood + stone. Stone costs 4, wood 2: the Caravansery must make the stone.
    game = position({0: ["caravansery"], 1: ["shelf_quarry"]}, ("rostrum",), coins={0: 2})
    payment = card_payment(game, 0, "rostrum")
    assert payment.from_choice == (STONE,)
    assert payment.bought == ((WOOD, 1, 2),)
    assert payment.total == 2
    game.apply(BuildCard("rostrum"))
    assert coins(game) == (0, 7)


def test_forum_covers_the_expensive_resource() -> None:
    # Caravansery card: 2 coins + glass + papyrus; papyrus costs 3 here, glass 2.
    game = position({0: ["forum"], 1: ["press"]}, ("caravansery",), coins={0: 4})
    payment = card_payment(game, 0, "caravansery")
    assert payment.from_choice == (PAPYRUS,)
    assert payment.bought == ((GLASS, 1, 2),)
    assert payment.total == 4
    game.apply(BuildCard("caravansery"))
    assert coins(game) == (0, 7)


def test_two_choice_producers_cover_two_units() -> None:
    game = position({0: ["forum", "caravansery"], 1: ["sawmill", "press"]})
    # Library: wood + stone + glass. Caravansery -> wood (4), Forum -> glass, buy stone (2).
    payment = card_payment(game, 0, "library")
    assert sorted(payment.from_choice) == [WOOD, GLASS]
    assert payment.bought == ((STONE, 1, 2),)
    assert payment.total == 2


def test_great_lighthouse_built_then_covers_the_expensive_resource() -> None:
    game = position({1: ["brickyard"]}, ("guard_tower", "horse_breeders"), coins={0: 20})
    # The Great Lighthouse: wood + stone + 2 papyrus, nothing produced: 2 + 2 + 2 x 2 = 8.
    assert wonder_price(game, 0, "the_great_lighthouse") == 8
    events = game.apply(BuildWonder("the_great_lighthouse", "guard_tower"))
    assert built_payment(events)["total"] == 8
    assert coins(game) == (12, 7)
    assert player(game, 0).choice_sets == [(WOOD, CLAY, STONE)]
    # It makes no fixed production: Dušan's prices do not change.
    assert costs.unit_prices(player(game, 1), player(game, 0)) == [2, 2, 2, 2, 2]
    # Horse Breeders: wood + clay; clay costs 4 (Brickyard): the Lighthouse makes the clay.
    payment = card_payment(game, 0, "horse_breeders")
    assert payment.from_choice == (CLAY,)
    assert payment.bought == ((WOOD, 1, 2),)
    assert payment.total == 2


def test_piraeus_built_then_covers_the_expensive_resource() -> None:
    # Seat 1 starts and owns Piraeus; Piraeus gives a second turn.
    game = position({0: ["press"]}, ("guard_tower", "caravansery"), coins={1: 20},
                    first_player=1)
    set_wonders(game, 1, ["piraeus"])
    events = game.apply(BuildWonder("piraeus", "guard_tower"))
    assert built_payment(events)["total"] == 8  # wood 2 x 2 + clay 2 + stone 2
    assert game.to_act == 1  # play again
    payment = card_payment(game, 1, "caravansery")
    assert payment.from_choice == (PAPYRUS,)  # papyrus costs 3, glass 2
    assert payment.total == 4
    game.apply(BuildCard("caravansery"))
    assert coins(game) == (7, 8)


# ---------------------------------------------------------------- Masonry, Architecture

def test_masonry_waives_the_two_most_expensive_units() -> None:
    # Palace: wood, clay, stone, 2 glass. Stone and glass cost 4, wood and clay 2.
    game = position({1: ["shelf_quarry", "glassworks", "glassblower"]}, ("palace",),
                    coins={0: 8})
    assert card_price(game, 0, "palace") == 16
    give_token(game, 0, "masonry")
    payment = card_payment(game, 0, "palace")
    assert payment.total == 8
    assert len(payment.waived) == 2
    assert set(payment.waived) <= {STONE, GLASS}
    assert units_bought(payment) == 3
    game.apply(BuildCard("palace"))
    assert coins(game) == (0, 7)


def test_masonry_is_for_blue_cards_only() -> None:
    game = position({1: ["shelf_quarry"]})
    give_token(game, 0, "masonry")
    assert card_price(game, 0, "walls") == 8  # red
    assert card_payment(game, 0, "walls").waived == ()
    assert wonder_price(game, 0, "the_pyramids") == 14  # 3 stone x 4 + papyrus 2


def test_masonry_with_forum_leaves_nothing_to_pay() -> None:
    # Obelisk: 2 stone + glass; glass costs 4, stone 3. Waiving the two most expensive units
    # (glass + a stone) would leave a stone the Forum cannot make (3 coins); the best is the
    # Forum on the glass and Masonry on both stones: 0.
    game = position({0: ["forum"], 1: ["glassworks", "glassblower", "quarry"]}, ("obelisk",),
                    coins={0: 0})
    give_token(game, 0, "masonry")
    assert card_payment(game, 0, "obelisk").total == 0
    assert "build:obelisk" in {str(a) for a in game.legal_actions()}
    events = game.apply(BuildCard("obelisk"))
    assert coins(game) == (0, 7)
    assert built_payment(events)["total"] == 0


def test_masonry_with_forum_breakdown() -> None:
    # Palace: wood, clay, stone, 2 glass; glass costs 4, stone 3, wood and clay 2.
    # Best: Forum -> a glass, Masonry -> the other glass and the stone, buy wood + clay (4).
    # Masonry on both glasses first would leave the stone to buy: 7.
    game = position({0: ["forum"], 1: ["glassworks", "glassblower", "quarry"]}, ("palace",),
                    coins={0: 4})
    give_token(game, 0, "masonry")
    payment = card_payment(game, 0, "palace")
    assert payment.total == 4
    assert payment.from_choice == (GLASS,)
    assert payment.waived == (STONE, GLASS)
    assert payment.bought == ((WOOD, 1, 2), (CLAY, 1, 2))
    events = game.apply(BuildCard("palace"))
    assert coins(game) == (0, 7)
    assert built_payment(events) == payment.to_json()
    assert built_payment(events)["waived"] == ["stone", "glass"]


def test_architecture_waives_two_units_of_a_wonder() -> None:
    # The Pyramids: 3 stone + papyrus; stone costs 4, papyrus 3: 4 + 3 after the discount.
    game = position({1: ["shelf_quarry", "press"]}, ("guard_tower",), coins={0: 7})
    assert wonder_price(game, 0, "the_pyramids") == 15
    give_token(game, 0, "architecture")
    payment = wonder_payment(game, 0, "the_pyramids")
    assert payment.waived == (STONE, STONE)
    assert payment.bought == ((STONE, 1, 4), (PAPYRUS, 1, 3))
    assert payment.total == 7
    game.apply(BuildWonder("the_pyramids", "guard_tower"))
    assert coins(game) == (0, 7)
    # Cards are not discounted by Architecture.
    assert card_price(game, 0, "aqueduct") == 12


def test_architecture_with_caravansery() -> None:
    # The Hanging Gardens: 2 wood + glass + papyrus; wood costs 4. Waiving both woods would
    # leave the Caravansery idle (4 coins); best: Caravansery -> wood, discount -> the other
    # wood and one of glass / papyrus, buy the last for 2.
    game = position({0: ["caravansery"], 1: ["sawmill"]}, ("guard_tower",), coins={0: 2})
    set_wonders(game, 0, ["the_hanging_gardens"])
    give_token(game, 0, "architecture")
    payment = wonder_payment(game, 0, "the_hanging_gardens")
    assert payment.total == 2
    assert payment.from_choice == (WOOD,)
    assert WOOD in payment.waived and len(payment.waived) == 2
    assert units_bought(payment) == 1
    game.apply(BuildWonder("the_hanging_gardens", "guard_tower"))
    assert coins(game) == (6, 7)  # the Gardens give 6 coins


# ---------------------------------------------------------------- Economy

def test_economy_holder_receives_the_trade_coins() -> None:
    # Dušan holds Economy; Jelena pays 5 for the Fortifications' clay and papyrus.
    game = position({0: ["quarry", "stone_pit"], 1: ["clay_pool"]}, ("fortifications",),
                    coins={0: 7})
    give_token(game, 1, "economy")
    payment = card_payment(game, 0, "fortifications")
    assert payment.to_opponent == 5
    events = game.apply(BuildCard("fortifications"))
    assert coins(game) == (2, 12)
    assert built_payment(events)["to_opponent"] == 5


def test_economy_does_not_pay_the_card_coin_cost() -> None:
    # Caravansery: 2 coins to the bank + 5 coins of trade to the Economy holder.
    game = position({1: ["glassworks"]}, ("caravansery",), coins={0: 10})
    give_token(game, 1, "economy")
    payment = card_payment(game, 0, "caravansery")
    assert (payment.coins, payment.trade, payment.to_opponent) == (2, 5, 5)
    game.apply(BuildCard("caravansery"))
    assert coins(game) == (3, 12)


def test_economy_with_a_reserve_pays_the_price_actually_paid() -> None:
    # Customs House: glass and papyrus at 1 each; the holder gets 2, not 3 + 2.
    game = position({0: ["customs_house"], 1: ["glassworks"]}, ("caravansery",),
                    coins={0: 10})
    give_token(game, 1, "economy")
    payment = card_payment(game, 0, "caravansery")
    assert (payment.coins, payment.trade, payment.to_opponent) == (2, 2, 2)
    game.apply(BuildCard("caravansery"))
    assert coins(game) == (6, 9)


def test_economy_nothing_for_a_pure_coin_cost() -> None:
    game = position({}, ("barracks",), coins={0: 3})
    give_token(game, 1, "economy")
    game.apply(BuildCard("barracks"))
    assert coins(game) == (0, 7)


def test_economy_on_a_wonder_build() -> None:
    game = position({}, ("guard_tower",), coins={0: 10})
    give_token(game, 1, "economy")
    game.apply(BuildWonder("the_pyramids", "guard_tower"))  # 3 stone + papyrus = 8
    assert coins(game) == (2, 15)


def test_economy_works_for_its_holder_only() -> None:
    # Jelena holds Economy and trades herself: nobody pays her, the coins go to the bank.
    game = position({1: ["clay_pool"]}, ("garrison",), coins={0: 3})
    give_token(game, 0, "economy")
    assert card_payment(game, 0, "garrison").to_opponent == 0
    game.apply(BuildCard("garrison"))
    assert coins(game) == (0, 7)


# ---------------------------------------------------------------- Urbanism

def test_urbanism_gives_4_coins_on_a_chain_build() -> None:
    game = position({0: ["baths"]}, ("aqueduct", "guard_tower"), coins={0: 0})
    give_token(game, 0, "urbanism")
    events = game.apply(BuildCard("aqueduct"))
    assert coins(game) == (4, 7)
    assert CoinsGained(seat=0, coins=4) in events


def test_urbanism_gives_nothing_on_a_normal_build() -> None:
    game = position({}, ("guard_tower", "barracks"), coins={0: 3})
    give_token(game, 0, "urbanism")
    events = game.apply(BuildCard("barracks"))  # paid, not chained
    assert coins(game) == (0, 7)
    assert not [e for e in events if isinstance(e, CoinsGained)]


def test_urbanism_on_each_chain_build() -> None:
    game = position({0: ["baths", "garrison"]}, ("aqueduct", "guard_tower", "barracks"),
                    coins={0: 0})
    give_token(game, 0, "urbanism")
    game.apply(BuildCard("aqueduct"))
    game.apply(DiscardCard("guard_tower"))  # Dušan: 7 + 2
    game.apply(BuildCard("barracks"))
    assert coins(game) == (8, 9)


# ---------------------------------------------------------------- unaffordable builds

def test_unaffordable_card_is_not_legal_and_apply_refuses_it() -> None:
    game = position({0: ["quarry", "stone_pit"], 1: ["clay_pool"]}, ("fortifications",),
                    coins={0: 4})
    legal = {str(a) for a in game.legal_actions()}
    assert "build:fortifications" not in legal
    assert "discard:fortifications" in legal
    before = game.state_hash()
    with pytest.raises(IllegalActionError) as error:
        game.apply(BuildCard("fortifications"))
    assert error.value.code == "cannot_afford"
    assert "5" in str(error.value)
    assert game.state_hash() == before
    assert coins(game) == (4, 7)
    assert game.log == []
    assert not game.is_legal(BuildCard("fortifications"))


def test_unaffordable_wonder_is_not_legal_and_apply_refuses_it() -> None:
    game = position({}, ("guard_tower",), coins={0: 7})
    assert wonder_price(game, 0, "the_pyramids") == 8
    assert "wonder:the_pyramids:guard_tower" not in {str(a) for a in game.legal_actions()}
    before = game.state_hash()
    with pytest.raises(IllegalActionError) as error:
        game.apply("wonder:the_pyramids:guard_tower")
    assert error.value.code == "cannot_afford"
    assert game.state_hash() == before
    player(game, 0).coins = 8
    assert "wonder:the_pyramids:guard_tower" in {str(a) for a in game.legal_actions()}


def test_exact_coins_are_enough() -> None:
    game = position({1: ["shelf_quarry"]}, ("walls",), coins={0: 8})
    assert "build:walls" in {str(a) for a in game.legal_actions()}
    game.apply(BuildCard("walls"))
    assert coins(game) == (0, 7)


def test_make_accessible_position_prices_match_legal_actions() -> None:
    # Whatever the card, legal_actions offers a build exactly when the price is affordable.
    game = new_game(seed=2)
    place_card(game, 1, "shelf_quarry")
    for card_id in ("aqueduct", "walls", "baths", "lumber_yard", "pretorium"):
        make_accessible(game, card_id)
        price = card_price(game, 0, card_id)
        for budget in (price - 1, price):
            if budget < 0:
                continue
            player(game, 0).coins = budget
            legal = {str(a) for a in game.legal_actions()}
            assert ("build:" + card_id in legal) == (budget >= price), (card_id, budget)
