"""Military conflicts, the end of the game, scoring and ties (RO L347-500, PT L310-398),
with the rulebooks' worked examples."""

from __future__ import annotations

import pytest

from app.classic.scenario import put, stages, table
from app.classic.scoring import outcome, science_points

from .helpers import close, sheet


def test_alexandria_between_rhodes_and_ephesos_after_age_two() -> None:
    """RO L361-364, PT L322-327: Alexandria (3 shields) between Rhodes (5) on its left and
    Ephesos (2) on its right: -1 and +3."""
    game = table("alexandria", "rhodos", "ephesos")
    put(game, 0, "stockade", "walls")
    put(game, 1, "walls", "archery_range", "barracks")
    put(game, 2, "walls")
    game.age = 2
    game._conflicts([])
    assert sorted(game.cities[0].tokens) == [-1, 3]


@pytest.mark.parametrize(("age", "token"), [(1, 1), (2, 3), (3, 5)])
def test_victory_tokens_are_worth_one_three_five(age: int, token: int) -> None:
    """RO L353-354, PT L318-320: Age I +1, Age II +3, Age III +5; defeat -1."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "stockade")
    game.age = age
    game._conflicts([])
    assert game.cities[0].tokens == [token, token]
    assert game.cities[1].tokens == [-1] and game.cities[2].tokens == [-1]


def test_equal_shields_give_no_token() -> None:
    """RO L357-358, PT L321: equal, nothing."""
    game = table("gizah", "rhodos", "olympia")
    game.age = 1
    game._conflicts([])
    assert [c.tokens for c in game.cities] == [[], [], []]


def test_conflicts_happen_at_the_end_of_every_age() -> None:
    """RO L347-349, PT L310-316: after turn 6 of each age."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "stockade")
    while game.age < 2:
        close(game)
    assert game.cities[0].tokens == [1, 1]
    while game.age < 3:
        close(game)
    assert game.cities[0].tokens == [1, 1, 3, 3]


def test_military_example_six_points() -> None:
    """RO L407-408, PT L348-349: +1 +3 +5 -1 -1 -1 = 6."""
    game = table("alexandria", "rhodos", "ephesos")
    game.cities[0].tokens = [1, 3, 5, -1, -1, -1]
    assert sheet(game, 0).military == 6


def test_treasury_example_fourteen_coins_four_points() -> None:
    """RO L412-419, PT L352-356: a point per 3 coins; 14 coins give 4."""
    game = table("alexandria", "rhodos", "ephesos")
    game.cities[0].coins = 14
    assert sheet(game, 0).treasury == 4


def test_wonder_example_alexandria_a_all_stages_ten_points() -> None:
    """RO L423-426, PT L358-360: 3 + 7 for Alexandria A's three stages."""
    game = table("alexandria", "rhodos", "ephesos")
    stages(game, 0, 3)
    assert sheet(game, 0).wonder == 10


def test_civilian_example_thirteen_points() -> None:
    """RO L430-434, PT L362-366: Altar 2 + Aqueduct 5 + Town Hall 6 = 13."""
    game = table("alexandria", "rhodos", "ephesos")
    put(game, 0, "altar", "aqueduct", "town_hall")
    assert sheet(game, 0).civilian == 13


def test_science_example_fourteen_then_twenty_one() -> None:
    """RO L467-484, PT L382-389: 3 tablets, 2 compasses, 1 gear: 14 for the sets of
    identical symbols, 21 with the set of three different."""
    game = table("alexandria", "rhodos", "ephesos")
    put(game, 0, "scriptorium", "library", "school", "apothecary", "dispensary", "workshop")
    assert science_points([2, 1, 3])[0] == 21 and sheet(game, 0).science == 21
    assert science_points([2, 1, 3])[0] - 7 * 1 == 9 + 4 + 1


def test_science_example_thirty_one_with_one_more_gear() -> None:
    """RO L486-487, PT L389-390: one more gear: (9 + 4 + 4) + (7 + 7) = 31."""
    game = table("alexandria", "rhodos", "ephesos")
    put(game, 0, "scriptorium", "library", "school", "apothecary", "dispensary", "workshop",
        "laboratory")
    assert sheet(game, 0).science == 31


def test_five_and_six_identical_symbols_are_worth_twenty_five_and_thirty_six() -> None:
    """RO L462-465, PT L380-381: with the Scientists Guild and Babylon."""
    assert science_points([4, 0, 0], 1) == (25, (0,))
    assert science_points([6, 0, 0])[0] == 36
    assert science_points([4, 0, 0], 2)[0] == 36


def test_two_wildcards_are_chosen_together_to_maximise() -> None:
    """RO L705, L1143-1145 (chosen at the end): Babylon and the Scientists Guild together."""
    game = table("babylon", "rhodos", "ephesos")
    stages(game, 0, 2)
    put(game, 0, "scientists_guild", "apothecary", "dispensary", "workshop", "laboratory")
    # 2 compasses, 2 gears: two tablets make (4 + 4 + 4) + 14 = 26
    assert sheet(game, 0).science == 26 and sheet(game, 0).wildcards == ("tablet", "tablet")


def test_chamber_of_commerce_example() -> None:
    """RO L491-494, PT L391-395: two grey cards, 4 points."""
    game = table("alexandria", "rhodos", "ephesos")
    put(game, 0, "chamber_of_commerce", "loom", "press")
    assert sheet(game, 0).commerce == 4


def test_more_coins_break_a_tie() -> None:
    """RO L387-388, PT L333, PT L471: equal points, more coins wins."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "altar")  # 2 points
    put(game, 1, "altar")
    game.cities[0].coins, game.cities[1].coins, game.cities[2].coins = 5, 4, 0
    result = outcome(game.cities)
    assert [s.total for s in result.sheets] == [3, 3, 0]
    assert result.places == (1, 2, 3) and result.winners == (0,)


def test_equal_points_and_coins_share_the_place() -> None:
    """RO L388 (not broken further), PT L333-334, PT L471-472: shared."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "altar")
    put(game, 1, "altar")
    game.cities[2].coins = 0
    result = outcome(game.cities)
    assert result.places == (1, 1, 3) and result.winners == (0, 1)


def test_the_game_ends_after_the_age_three_conflicts_with_scores() -> None:
    """RO L382-386, PT L329-331: the end comes after Age III's conflicts."""
    game = table("gizah", "rhodos", "olympia")
    while not game.over:
        close(game)
    result = game.outcome()
    assert result is not None and len(result.sheets) == 3 and game.age == 3
    assert all(len(c.tokens) == 0 for c in game.cities)  # nobody built a red card
