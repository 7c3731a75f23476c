"""Trading with the two neighbours (RO L210-286, L960-1016; PT L152-210, L737-743).

In these tables seat 0's left neighbour is seat 1 and its right neighbour is seat 2.
Starting resources: Rhodos ore, Alexandria glass, Ephesos papyrus, Babylon clay, Olympia
wood, Halikarnassos textile, Gizah stone.
"""

from __future__ import annotations

import pytest

from app.classic import IllegalActionError
from app.classic.scenario import coins, hand, put, stages, table

from .helpers import close, legal


def _refusal(game, seat: int, action: str) -> IllegalActionError:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalActionError) as refused:
        game.apply(seat, action)
    return refused.value


def test_each_unit_bought_costs_two_coins_paid_to_its_producer() -> None:
    """RO L236-237: two coins per resource to the neighbour who owns it."""
    game = table("rhodos", "gizah", "olympia")
    hand(game, 0, "baths")
    assert legal(game, 0) == ["build:baths:2:0", "discard:baths"]
    close(game, {0: "build:baths:2:0"})
    assert [c.coins for c in game.cities][:2] == [1, 3 + 2 + 3]


def test_example_a_university_bought_from_both_neighbours() -> None:
    """RO L261-267: University (2 wood, glass, papyrus); the city makes 1 wood and 1
    glass; one neighbour sells wood, the other papyrus: 2 coins to each."""
    game = table("alexandria", "olympia", "ephesos")
    put(game, 0, "lumber_yard")
    coins(game, 0, 4)
    hand(game, 0, "university")
    assert [a for a in legal(game, 0) if a.startswith("build")] == ["build:university:2:2"]
    close(game, {0: "build:university:2:2"})
    assert game.cities[0].coins == 0
    assert game.cities[1].coins == 3 + 2 + 3 and game.cities[2].coins == 3 + 2 + 3


def test_example_b_both_neighbours_buy_the_same_stones_and_the_seller_still_uses_them() -> None:
    """RO L269-274: both neighbours buy two stones from one city (8 coins in all), which
    builds Library with the same stones that turn."""
    game = table("gizah", "alexandria", "ephesos")
    put(game, 0, "stone_pit", "loom")
    hand(game, 0, "library")
    hand(game, 1, "altar")
    hand(game, 2, "altar")
    coins(game, 1, 4)
    coins(game, 2, 4)
    game.apply(1, "wonder:altar:0:4")  # Alexandria A1: 2 stone, bought to its right
    game.apply(2, "wonder:altar:4:0")  # Ephesos A1: 2 stone, bought to its left
    game.apply(0, "build:library:0:0")
    assert game.cities[0].coins == 3 + 8
    assert game.cities[1].built == game.cities[2].built == 1
    assert "library" in game.cities[0].names


def test_example_c_coins_earned_this_turn_cannot_pay_this_turn() -> None:
    """RO L257-259, L276-286, PT L205-210: a neighbour buying from the city does not pay
    for the city's Forum purchase in the same turn."""
    game = table("babylon", "rhodos", "olympia")
    put(game, 2, "clay_pool")
    coins(game, 0, 1)
    hand(game, 0, "forum")
    hand(game, 1, "guard_tower")  # Rhodos buys Babylon's clay (its right neighbour)
    game.apply(1, "build:guard_tower:0:2")
    refused = _refusal(game, 0, "build:forum:0:2")
    assert refused.code == "cannot_afford" and refused.params == {"price": 2, "coins": 1}
    assert [a for a in legal(game, 0) if a.startswith("build")] == []


def test_east_trading_post_discounts_raw_materials_from_the_right_only() -> None:
    """RO L992-996: East Trading Post, 1 coin for raw materials from the right neighbour."""
    game = table("rhodos", "gizah", "halikarnassos")
    put(game, 0, "east_trading_post")
    put(game, 2, "stone_pit")
    hand(game, 0, "baths")
    assert [a for a in legal(game, 0) if a.startswith("build")] == \
        ["build:baths:0:1", "build:baths:2:0"]


def test_west_trading_post_discounts_raw_materials_from_the_left_only() -> None:
    """RO L1002-1007: West Trading Post, 1 coin for raw materials from the left."""
    game = table("rhodos", "gizah", "halikarnassos")
    put(game, 0, "west_trading_post")
    put(game, 2, "stone_pit")
    hand(game, 0, "baths")
    assert [a for a in legal(game, 0) if a.startswith("build")] == \
        ["build:baths:1:0", "build:baths:0:2"]


def test_marketplace_discounts_manufactured_goods_from_both_and_not_raw() -> None:
    """RO L1009-1014, PT L741: Marketplace, 1 coin for goods from either neighbour."""
    game = table("rhodos", "alexandria", "halikarnassos")
    put(game, 0, "marketplace")
    put(game, 2, "glassworks")
    put(game, 1, "clay_pool")
    hand(game, 0, "workshop", "guard_tower")
    assert [a for a in legal(game, 0) if a.startswith("build:workshop")] == \
        ["build:workshop:0:1", "build:workshop:1:0"]
    assert [a for a in legal(game, 0) if a.startswith("build:guard")] == \
        ["build:guard_tower:2:0"]


def test_olympia_b_first_stage_discounts_raw_from_both_and_does_not_stack() -> None:
    """RO L694-696, L701-703, PT L585-591: Olympia B1 is both trading posts; not
    cumulative, and the posts may still be built."""
    game = table("olympia", "gizah", "rhodos", sides="B")
    stages(game, 0, 1)
    put(game, 0, "west_trading_post")
    put(game, 2, "stone_pit")
    hand(game, 0, "baths", "east_trading_post")
    assert [a for a in legal(game, 0) if a.startswith("build:baths")] == \
        ["build:baths:0:1", "build:baths:1:0"]
    assert "build:east_trading_post:0:0" in legal(game, 0)


def test_either_or_resources_are_bought_whatever_the_owner_uses() -> None:
    """RO L967-969: a neighbour may buy either resource of a two-resource card, whatever
    its owner uses that turn."""
    game = table("rhodos", "babylon", "ephesos")
    put(game, 1, "timber_yard")  # wood or stone
    hand(game, 1, "stockade")  # Babylon uses the wood
    hand(game, 0, "baths")  # seat 0 buys the stone of the same card
    game.apply(1, "build:stockade:0:0")
    game.apply(0, "build:baths:2:0")
    assert game.pending() == {2: "pick"}
    game.apply(2, legal(game, 2)[-1])
    assert "baths" in game.cities[0].names and "stockade" in game.cities[1].names


def test_caravansery_and_forum_cannot_be_bought() -> None:
    """RO L1039-1041, L1055-1056, PT L762-765: resources of Caravansery and Forum serve
    their owner only."""
    game = table("rhodos", "babylon", "ephesos")
    put(game, 1, "caravansery", "forum")
    hand(game, 0, "stockade", "workshop")
    refused = _refusal(game, 0, "build:stockade")
    assert refused.code == "cannot_produce"
    assert not any(a.startswith("build:workshop") for a in legal(game, 0))


def test_a_seat_uses_its_own_caravansery() -> None:
    """RO L1035-1037: Caravansery gives its owner one raw material of choice each turn."""
    game = table("rhodos", "babylon", "ephesos")
    put(game, 0, "caravansery")
    hand(game, 0, "stockade")
    coins(game, 0, 0)
    assert legal(game, 0)[0] == "build:stockade:0:0"


def test_alexandria_stage_resources_cannot_be_bought_but_its_glass_can() -> None:
    """RO L691 (Alexandria's stage resources are not for sale) and RO L216-218 (a board's
    starting resource is)."""
    game = table("rhodos", "alexandria", "ephesos")
    stages(game, 1, 2)  # Alexandria A2: a raw material of choice
    hand(game, 0, "stockade", "workshop")
    assert not any(a.startswith("build:stockade") for a in legal(game, 0))
    assert "build:workshop:2:0" in legal(game, 0)


def test_the_buyer_chooses_the_seller() -> None:
    """RO L254-255: both neighbours produce it, the buyer picks either."""
    game = table("rhodos", "gizah", "olympia")
    put(game, 2, "stone_pit")
    hand(game, 0, "baths")
    assert [a for a in legal(game, 0) if a.startswith("build")] == \
        ["build:baths:0:2", "build:baths:2:0"]
    close(game, {0: "build:baths:0:2"})
    assert game.cities[2].coins == 3 + 2 + 3 and game.cities[1].coins == 3 + 3


def test_a_split_that_buys_nothing_is_refused_with_the_offers() -> None:
    """RO L236-237: coins go to the producer of what is bought, no more."""
    game = table("rhodos", "gizah", "olympia")
    hand(game, 0, "baths")
    refused = _refusal(game, 0, "build:baths:0:2")
    assert refused.code == "wrong_split" and refused.params["offered"] == [[2, 0]]
    assert _refusal(game, 0, "build:baths:3:0").code == "wrong_split"


def test_no_split_named_takes_the_cheapest() -> None:
    """RO L992-996: with East Trading Post the right neighbour is cheaper."""
    game = table("rhodos", "gizah", "halikarnassos")
    put(game, 0, "east_trading_post")
    put(game, 2, "stone_pit")
    hand(game, 0, "baths")
    game.apply(0, "build:baths")
    assert str(game.log[-1][1]) == "build:baths:0:1"


def test_a_neighbour_sells_only_what_it_produces() -> None:
    """RO L213-215, HU L431: each unit of a neighbour is bought once a turn: two ore from a
    one-ore neighbour need the other neighbour too."""
    game = table("gizah", "rhodos", "olympia")
    hand(game, 0, "foundry", "statue")  # Statue: wood, 2 ore
    coins(game, 0, 10)
    assert not any(a.startswith("build:statue") for a in legal(game, 0))
    put(game, 2, "ore_vein")
    assert [a for a in legal(game, 0) if a.startswith("build:statue")] == \
        ["build:statue:2:4"]


def test_own_either_card_covers_the_dearer_resource() -> None:
    """RO L964-969: a two-resource card gives its owner either one each turn; the solver
    uses it where it saves the most."""
    game = table("rhodos", "gizah", "olympia")
    put(game, 0, "west_trading_post", "timber_yard")  # wood or stone
    hand(game, 0, "statue", "baths")  # Statue: wood + 2 ore; Rhodos has 1 ore
    put(game, 2, "ore_vein")
    assert [a for a in legal(game, 0) if a.startswith("build:statue")] == \
        ["build:statue:0:2"]


def test_coins_paid_by_several_buyers_all_arrive() -> None:
    """RO L249 (no refusal to sell), RO L269-274: two buyers from one seller."""
    game = table("gizah", "rhodos", "olympia")
    hand(game, 1, "baths")
    hand(game, 2, "baths")
    game.apply(1, "build:baths:0:2")  # Rhodos buys stone from its right (Gizah)
    game.apply(2, "build:baths:2:0")  # Olympia buys stone from its left (Gizah)
    game.apply(0, legal(game, 0)[-1])  # a discard: 3 coins more
    assert game.cities[0].coins == 3 + 4 + 3


def test_a_discount_serves_from_the_next_step_so_babylons_seventh_card_gets_it() -> None:
    """Ruling 3 (docs/classic-rules.md): RO L992-1013 "from the turn it was built" against
    PT L737-741 "from the next turn": a trading post built in turn 6 discounts Babylon B's
    seventh card, a step of its own (RO L695-701)."""
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 2)
    while game.turn < 6:
        close(game)
    hand(game, 0, "west_trading_post", "baths")  # Baths: a stone, Gizah on the left
    assert "build:baths:2:0" in legal(game, 0)
    close(game, {0: "build:west_trading_post:0:0"})
    assert game.phase == "seventh"
    assert [a for a in legal(game, 0) if a.startswith("build")] == ["build:baths:1:0"]


def test_a_trading_post_chosen_this_step_does_not_discount_this_step() -> None:
    """RO L257-259 and PT L737: a choice is priced on the city as the step opened."""
    game = table("rhodos", "gizah", "olympia")
    hand(game, 0, "west_trading_post", "baths")
    game.apply(0, "build:west_trading_post:0:0")
    assert "build:baths:2:0" in legal(game, 0) and "build:baths:1:0" not in legal(game, 0)
