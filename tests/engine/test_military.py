"""Military: the Conflict pawn, the loot tokens, supremacy and the military points.

Positions are first-game scenario games; the pawn and the loot tokens are set by hand where a
test starts from the middle of a game, and every shield then comes from a real build.
``state.pawn`` is signed: positive = towards seat 1's capital (seat 0 leads).

Rules (rules.md "Military", reference/military.md): each shield moves the pawn one space
towards the opponent's capital at once; entering distance 3 (zone 2) costs the opponent 2
coins, distance 6 (zone 3) 5 coins, all they have if fewer, each token once; distance 9 is
military supremacy; at the end the leader scores 2 (d 1-2), 5 (d 3-5) or 10 (d 6-8).
"""

from __future__ import annotations

import pytest

from app.engine import BuildCard, BuildWonder, DiscardCard, Game, IllegalActionError, view
from app.engine.events import Event, GameEnded, Looted, PawnMoved
from app.engine.scenario import give_token, new_position, player, set_coins
from app.engine.state import Victory

pytestmark = pytest.mark.compiled

TWO, FIVE = 0, 1
"""Indices in ``state.loot[seat]``: the 2-coin and the 5-coin token on ``seat``'s side."""


def position(cards: list[str], *, pawn: int = 0, age: int = 1,
             used_tokens: tuple[tuple[int, int], ...] = (),
             city0: tuple[str, ...] = (), city1: tuple[str, ...] = ()) -> Game:
    """A first-game scenario in ``age``, seat 0 to play, whose structure holds only ``cards``
    (face up, accessible, nothing under them), the pawn at ``pawn``, the given (seat, token)
    loot tokens already used and these cards already in each city."""
    game = new_position(cards, age=age, seed=7, cities={0: city0, 1: city1})
    state = game.state
    state.pawn = pawn
    for seat, token in used_tokens:
        state.loot[seat][token] = False
    return game


def looted(events: list[Event]) -> list[tuple[int, int, int]]:
    return [(e.seat, e.token, e.coins_lost) for e in events if isinstance(e, Looted)]


# ------------------------------------------------------------------------------- the pawn

def test_each_shield_moves_the_pawn_one_space_towards_the_opponent() -> None:
    game = position(["guard_tower", "garrison", "palisade", "theater"],
                    city1=("clay_pool",))   # so that seat 1 can build the Garrison
    events = game.apply(BuildCard("guard_tower"), seat=0)
    assert game.state.pawn == 1
    assert PawnMoved(seat=0, shields=1, pawn=1) in events
    assert view(game, 0)["players"][0]["shields_lead"] == 1
    assert view(game, 0)["players"][1]["shields_lead"] == -1

    game.apply(BuildCard("garrison"), seat=1)            # back to the centre
    assert game.state.pawn == 0
    game.apply(BuildCard("palisade"), seat=0)
    assert game.state.pawn == 1


def test_two_shield_card_moves_two_spaces_and_the_pawn_crosses_the_centre() -> None:
    game = position(["theater", "walls", "altar"], pawn=1, city1=("shelf_quarry",))
    game.apply(DiscardCard("theater"), seat=0)
    game.apply(BuildCard("walls"), seat=1)               # 2 shields for seat 1
    assert game.state.pawn == -1
    assert view(game, 1)["players"][1]["shields_lead"] == 1


def test_wonder_shields_move_the_pawn_too() -> None:
    # The Colossus (seat 1's in the first game): 2 shields.
    game = position(["theater", "altar", "baths"], pawn=-1,
                    city1=("brickyard", "clay_pool", "glassworks"))
    game.apply(DiscardCard("theater"), seat=0)
    events = game.apply(BuildWonder("the_colossus", "altar"), seat=1)
    assert game.state.pawn == -3
    assert looted(events) == [(0, 2, 2)]


# ----------------------------------------------------------------------------- loot tokens

@pytest.mark.parametrize("start", [1, 2])
def test_rulebook_example_archery_range_enters_the_zone_opponent_loses_two(start: int) -> None:
    # SR:377: Archery Range, 2 shields; the pawn enters the next zone; the opponent returns
    # 2 coins to the bank and the token leaves the game.
    game = position(["archery_range", "theater"], pawn=start, age=2,
                    city0=("lumber_yard", "quarry", "press"))
    events = game.apply(BuildCard("archery_range"), seat=0)
    assert game.state.pawn == start + 2
    assert player(game, 1).coins == 7 - 2
    assert player(game, 0).coins == 7, "the coins go to the bank, not to the attacker"
    assert looted(events) == [(1, 2, 2)]
    tokens = view(game, 1)["military"]["loot_tokens"]
    assert {"seat": 1, "coins": 2, "available": False} in tokens
    assert {"seat": 1, "coins": 5, "available": True} in tokens
    assert {"seat": 0, "coins": 2, "available": True} in tokens


def test_moving_within_zone_one_takes_no_coins() -> None:
    game = position(["walls", "theater"], city0=("shelf_quarry",))
    events = game.apply(BuildCard("walls"), seat=0)      # 0 -> 2
    assert game.state.pawn == 2
    assert player(game, 1).coins == 7
    assert looted(events) == []


def test_seat_one_loots_seat_zero() -> None:
    game = position(["theater", "guard_tower", "altar"], pawn=-2)
    game.apply(DiscardCard("theater"), seat=0)
    game.apply(BuildCard("guard_tower"), seat=1)         # -2 -> -3
    assert player(game, 0).coins == 7 + 2 - 2
    assert player(game, 1).coins == 7
    assert game.state.loot[0] == [False, True]
    assert game.state.loot[1] == [True, True]


def test_entering_zone_three_costs_five_coins() -> None:
    game = position(["guard_tower", "theater"], pawn=5, used_tokens=((1, TWO),))
    player(game, 1).coins = 9
    events = game.apply(BuildCard("guard_tower"), seat=0)
    assert game.state.pawn == 6
    assert player(game, 1).coins == 4
    assert looted(events) == [(1, 5, 5)]


@pytest.mark.parametrize(("coins", "pawn", "used", "left"),
                         [(1, 2, (), 0), (0, 2, (), 0), (3, 5, ((1, TWO),), 0)])
def test_opponent_with_too_few_coins_loses_all_they_have(
        coins: int, pawn: int, used: tuple[tuple[int, int], ...], left: int) -> None:
    game = position(["guard_tower", "theater"], pawn=pawn, used_tokens=used)
    player(game, 1).coins = coins
    events = game.apply(BuildCard("guard_tower"), seat=0)
    assert player(game, 1).coins == left
    assert looted(events)[0][2] == coins


def test_each_token_works_once() -> None:
    game = position(["guard_tower", "palisade", "stable", "theater"], pawn=2,
                    city0=("lumber_yard",))
    game.apply(BuildCard("guard_tower"), seat=0)         # 2 -> 3: seat 1 loses 2
    assert player(game, 1).coins == 5
    game.apply(BuildCard("palisade"), seat=1)            # 3 -> 2 (seat 1 pays 2)
    assert (game.state.pawn, player(game, 1).coins) == (2, 3)
    events = game.apply(BuildCard("stable"), seat=0)     # 2 -> 3 again: the token is gone
    assert game.state.pawn == 3
    assert player(game, 1).coins == 3
    assert looted(events) == []


def test_one_move_crossing_both_zones_applies_both_tokens() -> None:
    # Pretorium (3 shields) + Strategy (+1 on red cards): 2 -> 6.
    game = position(["pretorium", "theater"], pawn=2, age=3)
    give_token(game, 0, "strategy")
    set_coins(game, {0: 8, 1: 10})
    events = game.apply(BuildCard("pretorium"), seat=0)
    assert game.state.pawn == 6
    assert player(game, 1).coins == 10 - 2 - 5
    assert looted(events) == [(1, 2, 2), (1, 5, 5)]
    assert game.state.loot[1] == [False, False]


def test_both_tokens_in_one_move_take_at_most_what_the_opponent_has() -> None:
    game = position(["pretorium", "theater"], pawn=2, age=3)
    give_token(game, 0, "strategy")
    set_coins(game, {0: 8, 1: 4})
    events = game.apply(BuildCard("pretorium"), seat=0)
    assert player(game, 1).coins == 0
    assert [lost for _, _, lost in looted(events)] == [2, 2]


def test_three_shields_from_zone_one_enter_zone_two_only() -> None:
    game = position(["pretorium", "theater"], pawn=2, age=3)
    player(game, 0).coins = 8
    game.apply(BuildCard("pretorium"), seat=0)
    assert game.state.pawn == 5
    assert player(game, 1).coins == 5
    assert game.state.loot[1] == [False, True]


# --------------------------------------------------------------------- military supremacy

def test_reaching_the_capital_wins_at_once_mid_age() -> None:
    game = position(["walls", "theater", "altar", "baths"], pawn=7,
                    used_tokens=((1, TWO), (1, FIVE)), city0=("shelf_quarry",))
    cards_before = game.state.cards_left
    events = game.apply(BuildCard("walls"), seat=0)
    assert game.state.pawn == 9
    assert game.is_over
    assert game.decision is None and game.to_act is None
    assert game.legal_actions() == []
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.victory) == (0, "military")
    assert GameEnded(winner=0, victory=Victory.MILITARY) in events
    assert game.state.cards_left == cards_before - 1, "the age was not played out"
    with pytest.raises(IllegalActionError) as err:
        game.apply(DiscardCard("theater"))
    assert err.value.code == "game_over"


def test_seat_one_military_supremacy() -> None:
    game = position(["theater", "guard_tower", "altar"], pawn=-8,
                    used_tokens=((0, TWO), (0, FIVE)))
    game.apply(DiscardCard("theater"), seat=0)
    game.apply(BuildCard("guard_tower"), seat=1)
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.victory) == (1, "military")
    assert game.state.pawn == -9


def test_supremacy_from_a_wonder_ends_the_game_before_its_other_decision() -> None:
    # Circus Maximus: 1 shield and destroy a grey card. The shield wins first: no decision.
    game = position(["theater", "altar", "baths"], pawn=-8,
                    used_tokens=((0, TWO), (0, FIVE)),
                    city0=("press",), city1=("lumber_yard", "shelf_quarry", "glassworks"))
    game.apply(DiscardCard("theater"), seat=0)
    game.apply(BuildWonder("circus_maximus", "altar"), seat=1)
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.victory) == (1, "military")
    assert game.decision is None
    assert "press" in view(game, None)["players"][0]["cards"]


def test_shields_beyond_the_capital_are_lost_and_it_still_wins() -> None:
    game = position(["pretorium", "theater"], pawn=8, age=3,
                    used_tokens=((1, TWO), (1, FIVE)))
    player(game, 0).coins = 8
    game.apply(BuildCard("pretorium"), seat=0)
    assert game.state.pawn == 9
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.victory == "military"


def test_supremacy_straight_from_zone_two_takes_the_last_token_too() -> None:
    # 5 -> 9: the 5-coin zone is entered on the way.
    game = position(["pretorium", "theater"], pawn=5, age=3, used_tokens=((1, TWO),))
    give_token(game, 0, "strategy")
    player(game, 0).coins = 8
    events = game.apply(BuildCard("pretorium"), seat=0)
    assert game.outcome() is not None
    assert looted(events) == [(1, 5, 5)]


def test_distance_eight_is_not_supremacy() -> None:
    game = position(["guard_tower", "theater", "altar"], pawn=7,
                    used_tokens=((1, TWO), (1, FIVE)))
    game.apply(BuildCard("guard_tower"), seat=0)
    assert game.state.pawn == 8
    assert not game.is_over
    assert game.to_act == 1


# ------------------------------------------------------------------- end-of-game points

@pytest.mark.parametrize(
    ("pawn", "points_0", "points_1"),
    [(0, 0, 0), (1, 2, 0), (2, 2, 0), (3, 5, 0), (4, 5, 0), (5, 5, 0), (6, 10, 0), (7, 10, 0),
     (8, 10, 0), (-1, 0, 2), (-2, 0, 2), (-3, 0, 5), (-5, 0, 5), (-6, 0, 10), (-8, 0, 10)],
)
def test_military_points_at_the_end_of_the_game(pawn: int, points_0: int, points_1: int) -> None:
    game = position(["palace"], pawn=pawn, age=3)
    game.apply(DiscardCard("palace"), seat=0)           # the last card of Age III
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.victory == "civilian"
    assert (outcome.scores[0].military, outcome.scores[1].military) == (points_0, points_1)


def test_points_follow_the_pawn_after_it_moves_back() -> None:
    # Seat 0 led by 4 (5 points); seat 1's Walls bring it back to 2 (2 points).
    game = position(["theater", "walls"], pawn=4, age=3, used_tokens=((1, TWO),),
                    city1=("shelf_quarry",))
    game.apply(DiscardCard("theater"), seat=0)
    game.apply(BuildCard("walls"), seat=1)
    outcome = game.outcome()
    assert outcome is not None
    assert game.state.pawn == 2
    assert (outcome.scores[0].military, outcome.scores[1].military) == (2, 0)
