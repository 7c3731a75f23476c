"""The ten progress tokens and how they are acquired, through real actions.

A science pair is made the simple way: the city already holds one card of a symbol
(``place_card``) and builds the other one from the structure. The pairs used here:

    Library (quill) in the city      + build Scriptorium (2 coins)
    Laboratory (plumb line)          + build Workshop (1 papyrus)
    School (wheel)                   + build Apothecary (1 glass)
    Dispensary (mortar)              + build Pharmacist (2 coins)
"""

from __future__ import annotations

import json

import pytest

from app.engine import (
    TOKEN_BY_ID,
    TOKENS,
    BuildCard,
    BuildFromDiscard,
    BuildWonder,
    ChooseProgressToken,
    DecisionKind,
    DestroyCard,
    DiscardCard,
    Game,
    IllegalActionError,
    events_for,
    view,
)
from app.engine.events import Event, ProgressTokenTaken, SciencePairFormed
from app.engine.scenario import (
    give_token,
    ids_of_tokens,
    is_normal_turn,
    new_position,
    place_card,
    place_cards,
    player,
    set_tokens,
    set_wonders,
    supply_resources,
)
from app.engine.scoring import score_sheet

pytestmark = pytest.mark.compiled

ALL_TOKENS = [t.id for t in TOKENS]


# --------------------------------------------------------------------------- helpers
def start(cards: list[str], board: list[str] | None = None) -> Game:
    """Age I, seat 0 to play, with only ``cards`` left, all accessible. ``board``: the progress
    tokens on the board (the others are out of the game)."""
    game = new_position(cards)
    if board is not None:
        set_tokens(game, board)
    return game


def board(game: Game) -> list[str]:
    return view(game, None)["progress_board"]


def tokens_of(game: Game, seat: int) -> list[str]:
    return view(game, None)["players"][seat]["progress_tokens"]


def choosing(game: Game, seat: int) -> set[str]:
    """Assert ``seat`` must choose a token from the board now; return the offered ids."""
    decision = game.decision
    assert decision is not None
    assert decision.kind == DecisionKind.CHOOSE_PROGRESS and decision.seat == seat
    return ids_of_tokens(decision.options)


def pair_and_take(game: Game, seat: int, token: str, card: str = "scriptorium") -> None:
    """Build ``card`` (completing a pair) and take ``token`` from the board."""
    game.apply(BuildCard(card), seat=seat)
    assert token in choosing(game, seat)
    game.apply(ChooseProgressToken(token), seat=seat)


# --------------------------------------------------------------------------- acquisition
BOARD = ["philosophy", "law", "masonry", "strategy", "theology"]


def test_science_pair_offers_exactly_the_board_tokens() -> None:
    game = start(["scriptorium", "altar", "theater"], board=BOARD)
    place_card(game, 0, "library")

    events = game.apply(BuildCard("scriptorium"), seat=0)

    assert SciencePairFormed(seat=0, symbol="quill") in events
    assert choosing(game, 0) == set(BOARD)
    assert set(game.legal_actions()) == {ChooseProgressToken(t) for t in BOARD}
    # The board is public: the opponent sees the same offer.
    assert set(view(game, 1)["decision"]["options"]) == set(BOARD)
    # The turn is not over until the token is taken.
    with pytest.raises(IllegalActionError):
        game.apply(DiscardCard("altar"), seat=1)
    with pytest.raises(IllegalActionError) as err:
        game.apply(DiscardCard("altar"), seat=0)
    assert err.value.code == "wrong_decision"
    # A token out of the game cannot be taken.
    with pytest.raises(IllegalActionError) as err:
        game.apply(ChooseProgressToken("agriculture"), seat=0)
    assert err.value.code == "not_offered"

    events = game.apply(ChooseProgressToken("masonry"), seat=0)

    assert ProgressTokenTaken(seat=0, token="masonry", source="board") in events
    assert tokens_of(game, 0) == ["masonry"]
    assert set(board(game)) == set(BOARD) - {"masonry"}
    assert is_normal_turn(game, 1)


def test_a_second_pair_gives_another_choice() -> None:
    game = start(["scriptorium", "altar", "workshop", "theater"], board=BOARD)
    place_card(game, 0, "library")
    place_card(game, 0, "laboratory")
    pair_and_take(game, 0, "philosophy")
    game.apply(DiscardCard("altar"), seat=1)

    game.apply(BuildCard("workshop"), seat=0)

    assert choosing(game, 0) == set(BOARD) - {"philosophy"}
    game.apply(ChooseProgressToken("law"), seat=0)
    assert tokens_of(game, 0) == ["philosophy", "law"]
    assert set(board(game)) == {"masonry", "strategy", "theology"}
    assert is_normal_turn(game, 1)


def test_a_pair_when_the_board_is_empty_gives_nothing() -> None:
    game = start(["scriptorium", "altar", "theater"], board=[])
    place_card(game, 0, "library")

    game.apply(BuildCard("scriptorium"), seat=0)

    assert is_normal_turn(game, 1)
    assert tokens_of(game, 0) == []
    assert view(game, 0)["players"][0]["science"] == {"quill": 2}


def test_a_pair_made_with_the_last_card_of_an_age_is_chosen_before_the_age_ends() -> None:
    game = start(["scriptorium"], board=BOARD)
    place_card(game, 0, "library")

    game.apply(BuildCard("scriptorium"), seat=0)

    assert game.state.age == 1
    assert choosing(game, 0) == set(BOARD)
    game.apply(ChooseProgressToken("theology"), seat=0)
    assert game.state.age == 2
    decision = game.decision
    assert decision is not None and decision.kind == DecisionKind.CHOOSE_STARTER
    assert tokens_of(game, 0) == ["theology"]


def test_tokens_out_of_the_game_never_appear_in_any_view() -> None:
    game = start(["scriptorium", "altar", "workshop", "theater"], board=BOARD)
    box = [t for t in ALL_TOKENS if t not in BOARD]
    place_card(game, 0, "library")
    place_card(game, 0, "laboratory")
    moves = [(0, BuildCard("scriptorium")), (0, ChooseProgressToken("strategy")),
             (1, DiscardCard("altar")), (0, BuildCard("workshop")),
             (0, ChooseProgressToken("law")), (1, DiscardCard("theater"))]

    def check(events: list[Event]) -> None:
        for seat in (0, 1, None):
            seen = view(game, seat)
            text = json.dumps(seen) + json.dumps(events_for(events, seat))
            for token in box:
                assert json.dumps(token) not in text, (seat, token)
            assert set(seen["progress_board"]) == set(game_board)

    game_board = list(BOARD)
    check([])
    for seat, action in moves:
        events = game.apply(action, seat=seat)
        if isinstance(action, ChooseProgressToken):
            game_board.remove(action.token)
        check(events)
    assert board(game) == sorted(game_board, key=lambda t: TOKEN_BY_ID[t].index)


# --------------------------------------------------------------------------- Agriculture
def test_agriculture_six_coins_now_and_four_points() -> None:
    game = start(["scriptorium", "altar", "theater"], board=["agriculture", *BOARD[:4]])
    place_card(game, 0, "library")
    before = score_sheet(game.state, 0).progress

    pair_and_take(game, 0, "agriculture")

    assert player(game, 0).coins == 7 - 2 + 6
    assert before == 0 and score_sheet(game.state, 0).progress == 4


# --------------------------------------------------------------------------- Architecture
def test_architecture_taken_makes_later_wonders_cost_two_fewer_resources() -> None:
    game = start(["scriptorium", "altar", "theater", "baths"], board=["architecture", *BOARD[:4]])
    place_card(game, 0, "library")
    set_wonders(game, 0, ["the_pyramids"])
    place_cards(game, 1, ["quarry", "stone_pit"])  # opponent: 2 stone -> stone costs 4
    # 3 stone at 4 + papyrus at 2.
    assert game.wonder_payment(0, "the_pyramids").total == 14

    pair_and_take(game, 0, "architecture")
    game.apply(DiscardCard("altar"), seat=1)

    # The two most expensive units (2 stone) are waived: 4 + 2.
    player(game, 0).coins = 5
    assert BuildWonder("the_pyramids", "theater") not in game.legal_actions()
    player(game, 0).coins = 6
    assert BuildWonder("the_pyramids", "theater") in game.legal_actions()
    events = game.apply(BuildWonder("the_pyramids", "theater"), seat=0)
    assert player(game, 0).coins == 0
    payment = events[0].payment.to_json()
    assert payment["total"] == 6
    assert sorted(payment["waived"]) == ["stone", "stone"]


def test_architecture_waives_the_most_expensive_resources_and_only_for_wonders() -> None:
    game = start(["theater", "altar", "baths"])
    give_token(game, 0, "architecture")
    set_wonders(game, 0, ["the_statue_of_zeus"])
    set_wonders(game, 1, ["the_sphinx"])
    place_cards(game, 1, ["press", "drying_room"])  # opponent: papyrus costs 4
    # Zeus: wood, clay, stone at 2 and 2 papyrus at 4 = 14; the 2 papyrus are waived.
    payment = game.wonder_payment(0, "the_statue_of_zeus")
    assert payment.total == 6
    # Not for cards, not for the opponent.
    assert game.card_payment(0, "baths").total == 2
    assert game.wonder_payment(1, "the_sphinx").total == 8

    game.apply(BuildWonder("the_statue_of_zeus", "theater"), seat=0)
    assert player(game, 0).coins == 7 - 6


# --------------------------------------------------------------------------- Economy
def test_economy_receives_trade_coins_but_not_card_coin_costs() -> None:
    game = start(["baths", "altar", "scriptorium", "theater", "caravansery", "tavern"])
    give_token(game, 1, "economy")
    player(game, 0).coins = 20

    game.apply(BuildCard("baths"), seat=0)            # 1 stone bought at 2
    assert (player(game, 0).coins, player(game, 1).coins) == (18, 7 + 2)
    game.apply(DiscardCard("altar"), seat=1)
    assert player(game, 1).coins == 11

    game.apply(BuildCard("scriptorium"), seat=0)      # 2 coins printed on the card
    assert (player(game, 0).coins, player(game, 1).coins) == (16, 11)
    game.apply(DiscardCard("theater"), seat=1)
    assert player(game, 1).coins == 13

    events = game.apply(BuildCard("caravansery"), seat=0)   # 2 coins + glass 2 + papyrus 2
    assert (player(game, 0).coins, player(game, 1).coins) == (10, 13 + 4)
    assert events[0].payment.to_opponent == 4


def test_economy_receives_the_price_actually_paid_with_a_reserve() -> None:
    game = start(["caravansery", "altar", "theater"])
    give_token(game, 1, "economy")
    place_card(game, 0, "customs_house")              # glass and papyrus at 1
    place_card(game, 1, "glassworks")                 # would make glass cost 3 otherwise

    game.apply(BuildCard("caravansery"), seat=0)

    assert player(game, 0).coins == 7 - (2 + 1 + 1)
    assert player(game, 1).coins == 7 + 2


def test_economy_receives_trade_coins_for_a_wonder_and_its_holder_pays_the_bank() -> None:
    game = start(["theater", "altar", "baths"])
    give_token(game, 1, "economy")
    set_wonders(game, 0, ["the_pyramids"])
    player(game, 0).coins = 8

    game.apply(BuildWonder("the_pyramids", "theater"), seat=0)   # 3 stone + papyrus at 2
    assert (player(game, 0).coins, player(game, 1).coins) == (0, 7 + 8)

    game.apply(BuildCard("baths"), seat=1)                       # the holder trades: bank
    assert (player(game, 0).coins, player(game, 1).coins) == (0, 15 - 2)


# --------------------------------------------------------------------------- Law
@pytest.mark.parametrize("with_law", [True, False])
def test_law_counts_toward_six_different_symbols(with_law: bool) -> None:
    game = start(["scriptorium", "altar", "theater"])
    place_cards(game, 0, ["workshop", "apothecary", "pharmacist", "academy"])
    if with_law:
        give_token(game, 0, "law")

    game.apply(BuildCard("scriptorium"), seat=0)

    if with_law:
        outcome = game.outcome()
        assert outcome is not None and game.is_over
        assert (outcome.winner, outcome.victory) == (0, "science")
    else:
        assert not game.is_over and is_normal_turn(game, 1)


def test_taking_law_as_the_sixth_symbol_wins_at_once() -> None:
    game = start(["scriptorium", "altar", "theater"], board=BOARD)
    place_cards(game, 0, ["library", "workshop", "apothecary", "pharmacist", "academy"])

    game.apply(BuildCard("scriptorium"), seat=0)      # a quill pair: still 5 symbols
    assert not game.is_over
    game.apply(ChooseProgressToken("law"), seat=0)

    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.victory) == (0, "science")
    assert game.decision is None


def test_law_is_a_science_symbol_that_never_pairs() -> None:
    game = start(["scriptorium", "altar", "theater"], board=BOARD)
    place_card(game, 0, "library")

    pair_and_take(game, 0, "law")

    assert view(game, 1)["players"][0]["science"] == {"quill": 2, "law": 1}
    assert is_normal_turn(game, 1)      # no second choice
    assert "law" not in board(game)


# --------------------------------------------------------------------------- Masonry
def test_masonry_blue_cards_cost_two_fewer_resources() -> None:
    game = start(["palace", "altar", "apothecary", "theater"])
    give_token(game, 0, "masonry")
    set_wonders(game, 0, ["the_sphinx"])
    place_card(game, 1, "glassworks")                 # glass costs 3
    # Palace: wood, clay, stone at 2 + 2 glass at 3 = 12; the 2 glass are waived.
    player(game, 0).coins = 5
    assert BuildCard("palace") not in game.legal_actions()
    player(game, 0).coins = 6
    # Not wonders, not other colours.
    assert game.wonder_payment(0, "the_sphinx").total == 2 + 2 + 3 + 3
    assert game.card_payment(0, "apothecary").total == 3

    events = game.apply(BuildCard("palace"), seat=0)

    assert player(game, 0).coins == 0
    assert sorted(events[0].payment.to_json()["waived"]) == ["glass", "glass"]
    assert score_sheet(game.state, 0).blue == 7


def test_masonry_taken_from_the_board_applies_to_later_blue_cards() -> None:
    game = start(["scriptorium", "altar", "baths", "theater"], board=BOARD)
    place_card(game, 0, "library")
    assert game.card_payment(0, "baths").total == 2
    pair_and_take(game, 0, "masonry")
    game.apply(DiscardCard("altar"), seat=1)
    coins = player(game, 0).coins

    game.apply(BuildCard("baths"), seat=0)

    assert player(game, 0).coins == coins


# --------------------------------------------------------------------------- Mathematics
def test_mathematics_three_points_per_token_itself_included() -> None:
    game = start(["scriptorium", "altar", "theater"], board=["mathematics", *BOARD[1:]])
    place_card(game, 0, "library")
    give_token(game, 0, "philosophy")
    give_token(game, 1, "agriculture")                # the opponent's tokens do not count

    pair_and_take(game, 0, "mathematics")

    assert score_sheet(game.state, 0).progress == 7 + 3 * 2
    assert score_sheet(game.state, 1).progress == 4


def test_mathematics_alone_is_worth_three() -> None:
    game = start(["theater", "altar"])
    give_token(game, 0, "mathematics")
    assert score_sheet(game.state, 0).progress == 3
    give_token(game, 0, "law")
    give_token(game, 0, "economy")
    assert score_sheet(game.state, 0).progress == 9


# --------------------------------------------------------------------------- Philosophy
def test_philosophy_seven_points() -> None:
    game = start(["scriptorium", "altar", "theater"], board=BOARD)
    place_card(game, 0, "library")

    pair_and_take(game, 0, "philosophy")

    assert score_sheet(game.state, 0).progress == 7
    assert view(game, 1)["players"][0]["score"]["progress"] == 7


# --------------------------------------------------------------------------- Strategy
def test_strategy_adds_a_shield_to_later_red_cards_only() -> None:
    game = start(["guard_tower", "altar", "scriptorium", "theater", "palisade", "tavern"],
                 board=BOARD)
    place_card(game, 0, "library")

    game.apply(BuildCard("guard_tower"), seat=0)
    assert game.state.pawn == 1
    game.apply(DiscardCard("altar"), seat=1)
    pair_and_take(game, 0, "strategy")
    assert game.state.pawn == 1                        # not retroactive
    game.apply(DiscardCard("theater"), seat=1)

    game.apply(BuildCard("palisade"), seat=0)

    assert game.state.pawn == 1 + 2
    assert view(game, 0)["players"][0]["shields_lead"] == 3


def test_strategy_does_not_apply_to_wonders_nor_to_the_opponent() -> None:
    game = start(["theater", "guard_tower", "altar"])
    give_token(game, 0, "strategy")
    set_wonders(game, 0, ["the_colossus"])
    supply_resources(game, 0, "the_colossus")

    game.apply(BuildWonder("the_colossus", "theater"), seat=0)
    assert game.state.pawn == 2
    game.apply(BuildCard("guard_tower"), seat=1)
    assert game.state.pawn == 1


# --------------------------------------------------------------------------- Theology
def test_theology_every_later_wonder_plays_again_but_only_once() -> None:
    game = start(["theater", "altar", "baths", "tavern"])
    give_token(game, 0, "theology")
    set_wonders(game, 0, ["the_pyramids", "the_temple_of_artemis"])
    supply_resources(game, 0, "the_pyramids")
    supply_resources(game, 0, "the_temple_of_artemis")

    game.apply(BuildWonder("the_pyramids", "theater"), seat=0)
    assert is_normal_turn(game, 0)
    game.apply(BuildWonder("the_temple_of_artemis", "altar"), seat=0)
    assert is_normal_turn(game, 0)
    game.apply(DiscardCard("baths"), seat=0)
    assert is_normal_turn(game, 1)


def test_theology_taken_from_the_board_gives_play_again_to_later_wonders() -> None:
    game = start(["scriptorium", "altar", "theater", "baths"], board=BOARD)
    place_card(game, 0, "library")
    set_wonders(game, 0, ["the_pyramids"])
    supply_resources(game, 0, "the_pyramids")
    pair_and_take(game, 0, "theology")
    assert is_normal_turn(game, 1)                     # the pair's turn is not repeated
    game.apply(DiscardCard("altar"), seat=1)

    game.apply(BuildWonder("the_pyramids", "theater"), seat=0)

    assert is_normal_turn(game, 0)


# --------------------------------------------------------------------------- Urbanism
def test_urbanism_six_coins_then_four_per_chain_build() -> None:
    game = start(["scriptorium", "altar", "aqueduct", "theater", "lumber_yard", "tavern"],
                 board=["urbanism", *BOARD[:4]])
    place_card(game, 0, "library")
    place_card(game, 0, "baths")                       # water drop: Aqueduct chains

    pair_and_take(game, 0, "urbanism")
    assert player(game, 0).coins == 7 - 2 + 6
    game.apply(DiscardCard("altar"), seat=1)

    events = game.apply(BuildCard("aqueduct"), seat=0)
    assert events[0].payment.chain is True
    assert player(game, 0).coins == 11 + 4
    game.apply(DiscardCard("theater"), seat=1)

    game.apply(BuildCard("lumber_yard"), seat=0)       # free, but not through a chain
    assert player(game, 0).coins == 15


def test_urbanism_does_not_pay_for_the_chain_build_that_won_it() -> None:
    game = start(["library", "altar", "theater"], board=["urbanism", *BOARD[:4]])
    place_card(game, 0, "scriptorium")                 # book: Library chains, quill pair

    pair_and_take(game, 0, "urbanism", card="library")

    assert player(game, 0).coins == 7 + 6


def test_urbanism_a_mausoleum_build_is_not_a_chain_build() -> None:
    game = start(["altar", "aqueduct", "theater", "tavern"])
    give_token(game, 0, "urbanism")
    place_card(game, 0, "baths")
    set_wonders(game, 0, ["the_mausoleum"])
    supply_resources(game, 0, "the_mausoleum")
    game.apply(DiscardCard("altar"), seat=0)
    game.apply(DiscardCard("aqueduct"), seat=1)
    coins = player(game, 0).coins

    game.apply(BuildWonder("the_mausoleum", "theater"), seat=0)
    game.apply(BuildFromDiscard("aqueduct"), seat=0)

    assert "aqueduct" in view(game, 0)["players"][0]["cards"]
    assert player(game, 0).coins == coins


def test_theology_extra_turn_comes_after_the_wonders_decision() -> None:
    game = start(["theater", "altar", "baths"])
    give_token(game, 0, "theology")
    set_wonders(game, 0, ["the_statue_of_zeus"])
    supply_resources(game, 0, "the_statue_of_zeus")
    place_card(game, 1, "clay_pit")

    game.apply(BuildWonder("the_statue_of_zeus", "theater"), seat=0)
    decision = game.decision
    assert decision is not None and decision.kind == DecisionKind.DESTROY_CARD
    game.apply(DestroyCard("clay_pit"), seat=0)

    assert is_normal_turn(game, 0)
    game.apply(DiscardCard("altar"), seat=0)
    assert is_normal_turn(game, 1)
