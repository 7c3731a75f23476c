"""Setup, the turn, the three actions, chains, passing and the sixth card. Each test names
the rulebook lines it checks (RO/PT = rulebooks/7wonders-rules-ro.txt / -pt.txt)."""

from __future__ import annotations

import pytest

from app.classic import Game, IllegalActionError, Options, view
from app.classic.cards import CARDS, GUILDS
from app.classic.events import Unplayed
from app.classic.scenario import coins, hand, put, stages, table

from .helpers import close, legal, produce


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_setup_deals_seven_cards_and_three_coins_to_each_seat(players: int) -> None:
    """RO L142-144 (7 cards per player, the whole deck dealt), RO L164 (3 coins)."""
    game = Game.new(players, Options(players=players))
    assert [len(hand) for hand in game.hands] == [7] * players
    assert [city.coins for city in game.cities] == [3] * players
    assert all(len(deck) == 7 * players for deck in game.decks)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_players_plus_two_guilds_are_drawn_into_age_three(players: int) -> None:
    """RO L129-146: 3 players 5 guilds ... 7 players 9 guilds, drawn at random."""
    guilds = [c for c in Game.new(11, Options(players=players)).decks[2] if c in GUILDS]
    assert len(guilds) == players + 2 == len(set(guilds))
    other = [c for c in Game.new(12, Options(players=players)).decks[2] if c in GUILDS]
    assert players == 7 or {tuple(sorted(guilds)), tuple(sorted(other))} != {()}


def test_boards_are_dealt_at_random_or_chosen_and_sides_follow_the_option() -> None:
    """RO L150-160: the wonder card dealt gives board and side; boards may be chosen."""
    sides = {city.side for seed in range(20)
             for city in Game.new(seed, Options(players=7, sides="random")).cities}
    assert sides == {"A", "B"}
    boards = {tuple(c.board for c in Game.new(seed, Options(players=3)).cities)
              for seed in range(10)}
    assert len(boards) > 1
    chosen = Game.new(1, Options(players=3, sides="B", boards=("gizah", "rhodos", "olympia")))
    assert [view(chosen, None)["seats"][s]["board"] for s in range(3)] == \
        ["gizah", "rhodos", "olympia"]
    assert {city.side for city in chosen.cities} == {"B"}


def _pass_direction(age: int) -> str:
    game = table("gizah", "rhodos", "olympia", "babylon")
    while game.age < age:
        close(game)
    before = [list(hand) for hand in game.hands]
    close(game)
    after = game.hands
    to_left = all(set(after[(seat + 1) % 4]) <= set(before[seat]) for seat in range(4))
    to_right = all(set(after[(seat - 1) % 4]) <= set(before[seat]) for seat in range(4))
    assert to_left != to_right
    return "left" if to_left else "right"


def test_age_one_hands_pass_left_clockwise() -> None:
    """RO L307-308, PT L298: Age I passes to the left (clockwise)."""
    assert _pass_direction(1) == "left"


def test_age_two_hands_pass_right() -> None:
    """RO L309-310, PT L300: Age II passes to the right (counter-clockwise)."""
    assert _pass_direction(2) == "right"


def test_age_three_hands_pass_left() -> None:
    """RO L311, PT L302: Age III passes to the left again."""
    assert _pass_direction(3) == "left"


def test_the_sixth_turn_discards_the_last_card_without_coins() -> None:
    """RO L326-327, PT L304-307: the card not chosen in turn 6 goes to the discard pile and
    earns nothing."""
    game = table("gizah", "rhodos", "olympia")
    for _ in range(5):
        close(game)
    assert [len(h) for h in game.hands] == [2, 2, 2]
    hand(game, 0, "lumber_yard", "stone_pit")
    before = game.cities[0].coins
    events = close(game, {0: "build:lumber_yard"})
    unplayed = [e for e in events if isinstance(e, Unplayed)]
    assert len(unplayed) == 3 and unplayed[0].seat == 0 and unplayed[0].card == "stone_pit"
    assert game.cities[0].coins == before
    assert len(game.pile) == 5 * 3 + 2 + 3  # 15 discards, 2 more in turn 6, 3 unplayed
    assert game.age == 2 and all(len(h) == 7 for h in game.hands)


def test_discard_gives_three_coins() -> None:
    """RO L362-365, PT L287-290: discard for 3 coins from the bank."""
    game = table("gizah", "rhodos", "olympia")
    hand(game, 0, "altar", "baths")
    close(game, {0: "discard:altar"})
    assert game.cities[0].coins == 6 and CARDS[game.pile[0]].id == "altar"


def test_a_card_that_cannot_be_used_can_still_be_discarded() -> None:
    """RO L369-371, PT L292-293: a chosen card that can be neither built nor used for a
    stage is discarded for 3 coins."""
    game = table("ephesos", "alexandria", "halikarnassos")
    hand(game, 0, "aqueduct")
    coins(game, 0, 0)
    assert legal(game, 0) == ["discard:aqueduct"]


def test_coin_cost_is_paid_to_the_bank() -> None:
    """RO L189-192, PT L146-148: Timber Yard costs 1 coin, paid to the bank."""
    game = table("gizah", "rhodos", "olympia")
    hand(game, 0, "timber_yard", "altar")
    close(game, {0: "build:timber_yard"})
    assert game.cities[0].coins == 2 and game.cities[1].coins + game.cities[2].coins == 12


def test_a_free_card_costs_nothing() -> None:
    """RO L194-196, PT L149-151: East Trading Post is free."""
    game = table("gizah", "rhodos", "olympia")
    hand(game, 0, "east_trading_post")
    coins(game, 0, 0)
    assert "build:east_trading_post:0:0" in legal(game, 0)


def test_own_production_builds_and_is_not_spent() -> None:
    """RO L198-208: Barracks (1 ore) and Scriptorium (1 papyrus) are built from the
    city's own production, which is used again each turn; Aqueduct (3 stone) is not with
    2 stone."""
    game = table("rhodos", "gizah", "olympia")  # Rhodos: ore
    put(game, 0, "press")
    hand(game, 0, "barracks", "scriptorium")
    close(game, {0: "build:barracks:0:0"})
    hand(game, 0, "scriptorium", "aqueduct")
    assert "build:scriptorium:0:0" in legal(game, 0)
    game2 = table("gizah", "ephesos", "alexandria")  # Gizah: stone, no stone around
    put(game2, 0, "stone_pit")
    hand(game2, 0, "aqueduct")
    assert legal(game2, 0) == ["wonder:aqueduct:0:0", "discard:aqueduct"]


def test_two_structures_with_the_same_name_are_never_built() -> None:
    """RO L358-359, PT L248-249: never two identical structures (Loom of Age I and II)."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "loom")
    while game.age < 2:
        close(game)
    hand(game, 0, "loom", "altar")
    assert not any(a.startswith("build:loom") for a in legal(game, 0))
    with pytest.raises(IllegalActionError) as refused:
        game.apply(0, "build:loom")
    assert refused.value.code == "already_built"
    assert "discard:loom" in legal(game, 0)


def test_a_stage_pays_the_board_cost_and_tucks_the_card_hidden() -> None:
    """RO L307-318, PT L262-268: the board's price, not the card's; the tucked card has no
    effect and stays hidden."""
    game = table("gizah", "rhodos", "olympia")  # Gizah A1: 2 stone
    produce(game, 0, stone=1)
    hand(game, 0, "palace")
    close(game, {0: "wonder:palace:0:0"})
    city = game.cities[0]
    assert city.built == 1 and CARDS[city.tucked[0]].id == "palace" and not city.cards
    assert view(game, 0)["you"]["tucked"] == ["palace"]
    assert view(game, 1)["seats"][0]["last"] == {"use": "stage"}


def test_stages_are_built_in_order_and_each_once() -> None:
    """RO L350-351, PT L277-278: in order, left to right, each once."""
    game = table("gizah", "rhodos", "olympia")
    stages(game, 0, 3)
    hand(game, 0, "altar")
    assert not any(a.startswith("wonder") for a in legal(game, 0))
    with pytest.raises(IllegalActionError) as refused:
        game.apply(0, "wonder:altar")
    assert refused.value.code == "wonder_complete"


def test_scriptorium_makes_library_free_in_age_two() -> None:
    """RO L292-297, PT L214-217: a chain builds for nothing."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "scriptorium")
    while game.age < 2:
        close(game)
    hand(game, 0, "library")
    coins(game, 0, 0)
    assert legal(game, 0)[0] == "build:library:0:0"


def test_theater_statue_gardens_chain() -> None:
    """PT L218-221: Theater makes Statue free in Age II, Statue Gardens in Age III."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "theater")
    while game.age < 2:
        close(game)
    hand(game, 0, "statue", *[CARDS[c].id for c in game.hands[0][1:]])
    close(game, {0: "build:statue:0:0"})
    while game.age < 3:
        close(game)
    hand(game, 0, "gardens")
    coins(game, 0, 0)
    assert legal(game, 0)[0] == "build:gardens:0:0"


def test_forum_chains_from_either_trading_post() -> None:
    """RO L289-293 with the card list (cards.csv: Forum from East or West Trading Post)."""
    for post in ("east_trading_post", "west_trading_post"):
        game = table("gizah", "rhodos", "olympia")
        put(game, 0, post)
        while game.age < 2:
            close(game)
        hand(game, 0, "forum")
        assert legal(game, 0)[0] == "build:forum:0:0"


def test_a_chain_is_refused_a_split_that_pays() -> None:
    """RO L292-294: a chained card is built without its resource cost: nothing to buy."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "scriptorium")
    while game.age < 2:
        close(game)
    hand(game, 0, "library")
    with pytest.raises(IllegalActionError) as refused:
        game.apply(0, "build:library:0:2")
    assert refused.value.code == "wrong_split"


def test_choices_resolve_together_and_a_seat_may_change_its_choice() -> None:
    """RO L338-346, PT L235-240: choose face down; when all have chosen, act at once."""
    game = table("gizah", "rhodos", "olympia")
    hand(game, 0, "altar", "baths")
    game.apply(0, "discard:altar")
    game.apply(1, "discard:" + CARDS[game.hands[1][0]].id)
    assert game.cities[0].coins == 3 and game.pending() == {2: "pick"}
    game.apply(0, "build:baths:0:0")  # changed before the step closed
    game.apply(2, "discard:" + CARDS[game.hands[2][0]].id)
    assert CARDS[game.cities[0].cards[0]].id == "baths"


def test_a_refused_choice_changes_nothing() -> None:
    """RO L257-259: a purchase needs the coins held when the turn starts."""
    game = table("ephesos", "gizah", "rhodos")
    hand(game, 0, "baths")
    coins(game, 0, 1)
    before = game.state_hash()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(0, "build:baths:2:0")
    assert refused.value.code == "cannot_afford"
    assert game.state_hash() == before and not game.log


def test_a_seat_that_does_not_act_is_refused() -> None:
    """RO L693-704: the seventh card is Babylon's step alone; others wait."""
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 2)
    for _ in range(6):
        close(game)
    assert game.phase == "seventh" and game.to_act() == (0,)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(1, "discard:altar")
    assert refused.value.code == "not_your_turn"


def test_a_choice_for_a_closed_step_is_stale() -> None:
    """RO L346: a choice belongs to its turn."""
    game = table("gizah", "rhodos", "olympia")
    step = game.step
    close(game)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(0, "discard:" + CARDS[game.hands[0][0]].id, step=step)
    assert refused.value.code == "stale_step"

