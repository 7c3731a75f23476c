"""Scientific supremacy, the civilian count and its tie-break, who starts each age, the
wonder draft, and the engine's refusals (out of turn, wrong decision, covered card).

Positions are first-game scenario games (``app.engine.scenario``); a test that needs a later
age moves there with ``scenario.start_age`` (the engine's own ``GameState.lay_out_age``: the real
layout of that age's deck, without replaying earlier ages), and cuts the structure down to the
cards it plays so that taking the last one ends the age. Draft tests use real ``Game.new``
games with the draft.
"""

from __future__ import annotations

import json

import pytest

from app.engine import (
    Action,
    BuildCard,
    BuildFromDiscard,
    BuildWonder,
    ChooseProgressToken,
    ChooseStarter,
    DecisionKind,
    DestroyCard,
    DiscardCard,
    Game,
    IllegalActionError,
    Options,
    PickWonder,
    view,
)
from app.engine.cards import CARDS, WONDERS
from app.engine.events import (
    AgeStarted,
    CardRevealed,
    DraftRoundStarted,
    Event,
    GameEnded,
    StarterChosen,
    WonderPicked,
)
from app.engine.scenario import (
    give_token,
    mark_wonder_built,
    new_game,
    new_position,
    player,
    set_coins,
    set_tokens,
)
from app.engine.scoring import ScoreSheet
from app.engine.state import Victory

pytestmark = pytest.mark.compiled

CATEGORIES = ("blue", "green", "yellow", "purple", "wonders", "progress", "coins", "military")


def position(cards: list[str], age: int = 3, city0: tuple[str, ...] = (),
             city1: tuple[str, ...] = (), first_player: int = 0) -> Game:
    """A first-game scenario in ``age``, ``first_player`` to play, these cards already in each
    city, and only ``cards`` left in the structure (face up, accessible, nothing under them)."""
    game = new_position(cards, age=age, seed=11, first_player=first_player,
                        cities={0: city0, 1: city1})
    assert game.state.age == age and game.to_act == first_player
    return game


def refused(game: Game, action: Action, code: str, seat: int | None = None) -> None:
    """``action`` raises IllegalActionError(code) and changes nothing."""
    before = game.state_hash()
    log = list(game.log)
    decision = game.decision
    with pytest.raises(IllegalActionError) as err:
        game.apply(action, seat=seat)
    assert err.value.code == code
    assert game.state_hash() == before
    assert game.log == log
    assert game.decision == decision


def sheets(game: Game) -> tuple[ScoreSheet, ScoreSheet]:
    outcome = game.outcome()
    assert outcome is not None
    return outcome.scores


# ------------------------------------------------------------------ scientific supremacy

FIVE_SYMBOLS = ("workshop", "apothecary", "scriptorium", "pharmacist", "academy")
"""plumb line, wheel, quill, mortar, sundial."""


@pytest.mark.parametrize("seat", [0, 1])
def test_six_different_science_symbols_win_at_once_mid_age(seat: int) -> None:
    cities = {seat: FIVE_SYMBOLS, 1 - seat: ("palace", "town_hall", "obelisk")}
    game = position(["theater", "university", "altar", "baths", "senate"], first_player=1 - seat,
                    city0=cities[0], city1=cities[1])
    player(game, seat).coins = 20
    game.apply(DiscardCard("theater"), seat=1 - seat)
    events = game.apply(BuildCard("university"), seat=seat)     # globe: the sixth symbol
    assert game.is_over
    assert game.decision is None and game.legal_actions() == []
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.victory) == (seat, "science")
    assert GameEnded(winner=seat, victory=Victory.SCIENCE) in events
    assert game.state.cards_left == 3, "Age III was not played out"
    # The opponent's 19 blue points do not matter.
    assert outcome.scores[1 - seat].total > outcome.scores[seat].total


def test_five_different_symbols_and_a_pair_is_not_supremacy() -> None:
    game = position(["study", "palace"], city0=FIVE_SYMBOLS)
    set_tokens(game, ["philosophy", "agriculture"])
    player(game, 0).coins = 20
    game.apply(BuildCard("study"), seat=0)       # a second sundial
    assert not game.is_over
    decision = game.decision
    assert decision is not None
    assert (decision.kind, decision.seat) == (DecisionKind.CHOOSE_PROGRESS, 0)


def test_law_token_taken_for_a_pair_can_be_the_sixth_symbol() -> None:
    game = position(["study", "palace", "senate"], city0=FIVE_SYMBOLS)
    set_tokens(game, ["law", "philosophy"])
    player(game, 0).coins = 20
    game.apply(BuildCard("study"), seat=0)
    assert not game.is_over
    game.apply(ChooseProgressToken("law"), seat=0)
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.victory) == (0, "science")


# ---------------------------------------------------------------------- civilian victory

def test_civilian_victory_score_sheet_categories_add_up() -> None:
    game = position(
        ["senate"],
        city0=("theater", "palace", "workshop", "library", "port", "magistrates_guild"),
        city1=("altar", "temple", "obelisk"),
    )
    mark_wonder_built(game, 0, "the_pyramids", "lumber_yard")
    mark_wonder_built(game, 0, "the_statue_of_zeus", "clay_pool")
    mark_wonder_built(game, 1, "the_colossus", "quarry")
    give_token(game, 0, "philosophy")
    give_token(game, 0, "mathematics")
    give_token(game, 1, "agriculture")
    game.state.pawn = 4
    set_coins(game, {0: 11, 1: 5})

    events = game.apply(DiscardCard("senate"), seat=0)   # the last card: +3 coins (1 yellow)

    assert player(game, 0).coins == 14
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.victory) == (0, "civilian")
    assert GameEnded(winner=0, victory=Victory.CIVILIAN) in events
    mine, theirs = outcome.scores
    assert mine == ScoreSheet(blue=10, green=3, yellow=3, purple=3, wonders=12, progress=13,
                              coins=4, military=5)
    assert mine.total == 53
    assert theirs == ScoreSheet(blue=12, green=0, yellow=0, purple=0, wonders=3, progress=4,
                                coins=1, military=0)
    assert theirs.total == 20
    for sheet in (mine, theirs):
        assert sheet.total == sum(getattr(sheet, name) for name in CATEGORIES)
    # The same sheet in the views, with its total.
    shown = view(game, None)["outcome"]["scores"][0]
    assert shown == {**{name: getattr(mine, name) for name in CATEGORIES}, "total": 53}
    assert view(game, 1)["players"][0]["score"]["total"] == 53


@pytest.mark.parametrize(("coins", "points"), [(0, 0), (2, 0), (3, 1), (8, 2), (9, 3), (31, 10)])
def test_one_point_per_three_coins(coins: int, points: int) -> None:
    game = position(["palace"])
    player(game, 1).coins = coins
    game.apply(DiscardCard("palace"), seat=0)
    assert sheets(game)[1].coins == points
    assert sheets(game)[1].total == points


def test_tie_on_points_more_blue_points_wins() -> None:
    # Seat 0: Theater 3 + the Pyramids 9 = 12 (blue 3). Seat 1: Town Hall 7 + Obelisk 5 = 12.
    game = position(["palace"], city0=("theater",), city1=("town_hall", "obelisk"))
    mark_wonder_built(game, 0, "the_pyramids", "lumber_yard")
    set_coins(game, {0: 0, 1: 0})
    game.apply(DiscardCard("palace"), seat=0)
    mine, theirs = sheets(game)
    assert mine.total == theirs.total == 12
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.victory) == (1, "civilian")


def test_tie_on_points_more_blue_points_wins_for_seat_zero_too() -> None:
    # Seat 0: Town Hall 7 + Obelisk 5 = 12. Seat 1: Altar 3 + Philosophy 7 + Piraeus 2 = 12.
    game = position(["palace"], city0=("town_hall", "obelisk"), city1=("altar",))
    give_token(game, 1, "philosophy")
    mark_wonder_built(game, 1, "piraeus", "lumber_yard")
    set_coins(game, {0: 0, 1: 0})
    game.apply(DiscardCard("palace"), seat=0)
    mine, theirs = sheets(game)
    assert mine.total == theirs.total == 12
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 0


def test_more_points_win_even_with_fewer_blue_points() -> None:
    game = position(["palace"], city1=("altar", "town_hall"))   # seat 1: blue 10
    game.state.pawn = -1                                  # seat 1: + 2 = 12
    give_token(game, 0, "agriculture")
    give_token(game, 0, "mathematics")                    # seat 0: 4 + 6 = 10, blue 0
    mark_wonder_built(game, 0, "the_sphinx", "clay_pool")  # + 6 = 16
    set_coins(game, {0: 0, 1: 0})
    game.apply(DiscardCard("palace"), seat=0)
    mine, theirs = sheets(game)
    assert (mine.total, mine.blue, theirs.total, theirs.blue) == (16, 0, 12, 10)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 0


def test_tie_on_points_and_blue_points_is_a_shared_victory() -> None:
    game = position(["senate"], city0=("palace",), city1=("town_hall",))
    set_coins(game, {0: 1, 1: 3})
    game.apply(DiscardCard("senate"), seat=0)            # seat 0: 3 coins, 1 point each
    mine, theirs = sheets(game)
    assert mine == theirs
    assert mine.total == 8
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.victory) == (None, "civilian")
    assert view(game, 0)["outcome"]["winner"] is None


# ------------------------------------------------------------ who starts the next age

@pytest.mark.parametrize("age", [1, 2])
@pytest.mark.parametrize(
    ("pawn", "last_taker", "chooser"),
    [
        (-2, 1, 0),   # the pawn on seat 0's side: seat 0 (weaker) chooses
        (-7, 0, 0),
        (2, 0, 1),    # on seat 1's side: seat 1 chooses
        (1, 1, 1),
        (0, 0, 0),    # centred: whoever took the last card chooses
        (0, 1, 1),
    ],
)
@pytest.mark.parametrize("starter", [0, 1])
def test_choice_of_who_starts_the_next_age(age: int, pawn: int, last_taker: int, chooser: int,
                                           starter: int) -> None:
    cards = {1: ["theater", "altar"], 2: ["statue", "temple"]}[age]
    game = position(cards if last_taker == 1 else cards[:1], age=age)
    game.state.pawn = pawn
    game.apply(DiscardCard(cards[0]), seat=0)
    if last_taker == 1:
        game.apply(DiscardCard(cards[1]), seat=1)

    assert game.state.age == age + 1
    decision = game.decision
    assert decision is not None
    assert (decision.kind, decision.seat) == (DecisionKind.CHOOSE_STARTER, chooser)
    assert set(game.legal_actions()) == {ChooseStarter(0), ChooseStarter(1)}
    refused(game, ChooseStarter(starter), "not_your_turn", seat=1 - chooser)
    refused(game, DiscardCard(CARDS[game.state.structure[18]].id), "wrong_decision")

    events = game.apply(ChooseStarter(starter), seat=chooser)
    assert StarterChosen(seat=chooser, starter=starter) in events
    assert game.to_act == starter
    assert game.decision is not None and game.decision.kind == DecisionKind.PLAY_CARD
    # The chosen seat plays the first card of the new age, then the other seat.
    first = game.legal_actions()[0]
    refused(game, first, "not_your_turn", seat=1 - starter)
    game.apply(first, seat=starter)
    assert game.to_act == 1 - starter


# ------------------------------------------------------------------------------- the draft

def wonder_ids(indices: list[int]) -> list[str]:
    return [WONDERS[w].id for w in indices]


def all_views_text(game: Game) -> str:
    return json.dumps([view(game, seat) for seat in (0, 1, None)])


@pytest.mark.parametrize("first", [0, 1])
def test_draft_order_and_automatic_last_picks(first: int) -> None:
    second = 1 - first
    game = Game.new(21, Options(first_player=first))
    round1, round2 = (wonder_ids(r) for r in game.state.draft_rounds)
    players = game.state.players

    def pick(seat: int, offer: list[str]) -> list[Event]:
        decision = game.decision
        assert decision is not None
        assert (decision.kind, decision.seat) == (DecisionKind.PICK_WONDER, seat)
        assert sorted(wonder_ids(list(decision.options))) == sorted(offer)
        assert sorted(str(a) for a in game.legal_actions()) == sorted(f"pick:{w}" for w in offer)
        wonder = offer.pop(0)
        events = game.apply(PickWonder(wonder), seat=seat)
        assert WonderPicked(seat=seat, wonder=wonder) in events
        return events

    # Round 1: first picks 1, second picks 2, first gets the last one.
    offer = list(round1)
    pick(first, offer)
    pick(second, offer)
    assert game.to_act == second
    events = pick(second, offer)
    assert WonderPicked(seat=first, wonder=offer[0]) in events
    assert len(players[first].wonders) == 2 and len(players[second].wonders) == 2
    assert sorted(wonder_ids(players[first].wonders + players[second].wonders)) == sorted(round1)

    # Round 2, reversed: second picks 1, first picks 2, second gets the last one.
    offer = list(round2)
    pick(second, offer)
    pick(first, offer)
    assert game.to_act == first
    events = pick(first, offer)
    assert WonderPicked(seat=second, wonder=offer[0]) in events

    assert len(players[0].wonders) == 4 and len(players[1].wonders) == 4
    owned = wonder_ids(players[0].wonders + players[1].wonders)
    assert sorted(owned) == sorted(round1 + round2)
    assert game.state.age == 1
    assert game.to_act == first
    decision = game.decision
    assert decision is not None and decision.kind == DecisionKind.PLAY_CARD
    assert any(isinstance(e, AgeStarted) and e.age == 1 for e in events)
    assert view(game, first)["phase"] == "play"


def test_round_two_wonders_are_hidden_until_round_two() -> None:
    game = Game.new(33, Options(first_player=0))
    round2 = wonder_ids(game.state.draft_rounds[1])
    unused = wonder_ids(game.state.unused_wonders)
    assert len(round2) == 4 and len(unused) == 4
    for _ in range(2):                                    # steps 0 and 1 of round 1
        text = all_views_text(game)
        assert not [w for w in round2 + unused if w in text]
        game.apply(game.legal_actions()[0])
    text = all_views_text(game)
    assert not [w for w in round2 + unused if w in text]
    events = game.apply(game.legal_actions()[0])         # the second player's second pick
    draft_round = [e for e in events if isinstance(e, DraftRoundStarted)]
    assert draft_round and sorted(draft_round[0].wonders) == sorted(round2)
    text = all_views_text(game)
    assert all(w in text for w in round2)
    assert not [w for w in unused if w in text]
    while game.state.age == 0:
        game.apply(game.legal_actions()[0])
    assert not [w for w in unused if w in all_views_text(game)]


FIRST_GAME = {
    "first": {"the_pyramids", "the_great_lighthouse", "the_temple_of_artemis",
              "the_statue_of_zeus"},
    "second": {"circus_maximus", "piraeus", "the_appian_way", "the_colossus"},
}


@pytest.mark.parametrize("first", [0, 1])
def test_first_game_variant_gives_the_fixed_wonders(first: int) -> None:
    game = Game.new(5, Options(wonder_selection="first_game", first_player=first))
    players = game.state.players
    assert set(wonder_ids(players[first].wonders)) == FIRST_GAME["first"]
    assert set(wonder_ids(players[1 - first].wonders)) == FIRST_GAME["second"]
    assert game.state.age == 1
    assert game.to_act == first
    decision = game.decision
    assert decision is not None and decision.kind == DecisionKind.PLAY_CARD
    shown = {w["wonder"] for w in view(game, None)["players"][first]["wonders"]}
    assert shown == FIRST_GAME["first"]


# ---------------------------------------------------------------------------- refusals

def test_move_out_of_turn_is_refused_and_changes_nothing() -> None:
    game = new_game(3, first_player=0)
    action = game.legal_actions()[0]
    refused(game, action, "not_your_turn", seat=1)
    game.apply(action, seat=0)
    action = game.legal_actions()[0]
    refused(game, action, "not_your_turn", seat=0)
    game.apply(action, seat=1)


def test_draft_pick_out_of_turn_is_refused() -> None:
    game = Game.new(4, Options(first_player=1))
    pick = game.legal_actions()[0]
    refused(game, pick, "not_your_turn", seat=0)
    game.apply(pick, seat=1)


def test_progress_choice_out_of_turn_is_refused() -> None:
    game = position(["laboratory", "altar"], age=2, city0=("workshop",))
    player(game, 0).coins = 20
    game.apply(BuildCard("laboratory"), seat=0)          # a pair of plumb lines
    decision = game.decision
    assert decision is not None
    assert (decision.kind, decision.seat) == (DecisionKind.CHOOSE_PROGRESS, 0)
    token = game.legal_actions()[0]
    refused(game, token, "not_your_turn", seat=1)
    # Waiting for the token: no card may be played, not even by the player who owes it.
    refused(game, DiscardCard("altar"), "wrong_decision", seat=0)
    refused(game, DiscardCard("altar"), "not_your_turn", seat=1)
    refused(game, ChooseStarter(0), "wrong_decision")
    game.apply(token, seat=0)
    assert game.to_act == 1


def test_actions_of_the_wrong_kind_are_refused() -> None:
    game = new_game(3, first_player=0)
    card = CARDS[game.state.structure[min(game.state.accessible)]].id
    during_play: list[Action] = [ChooseStarter(0), PickWonder("the_sphinx"),
                                 ChooseProgressToken("law"), DestroyCard(card),
                                 BuildFromDiscard(card)]
    for action in during_play:
        refused(game, action, "wrong_decision")
        refused(game, action, "wrong_decision", seat=0)

    draft = Game.new(3, Options(first_player=0))
    during_draft: list[Action] = [BuildCard(card), DiscardCard(card), ChooseStarter(1),
                                  BuildWonder("the_sphinx", card)]
    for action in during_draft:
        refused(draft, action, "wrong_decision")


def test_taking_a_covered_card_is_refused() -> None:
    game = new_game(3, first_player=0)
    player(game, 0).coins = 99
    structure = game.state.structure
    top = CARDS[structure[0]].id            # face up, covered by slots 2 and 3
    hidden = CARDS[structure[9]].id         # face down, covered by slots 14 and 15
    assert game.state.face_up[0] and not game.state.face_up[9]
    for card in (top, hidden):
        for action in (BuildCard(card), DiscardCard(card), BuildWonder("the_pyramids", card)):
            refused(game, action, "not_accessible")
    in_box = CARDS[game.state.decks[3][0]].id  # not in this age's structure at all
    refused(game, DiscardCard(in_box), "not_accessible")
    taken = CARDS[structure[14]].id
    game.apply(DiscardCard(taken))
    refused(game, DiscardCard(taken), "not_accessible")


def test_face_down_cards_turn_face_up_when_uncovered() -> None:
    game = new_game(3, first_player=0)
    structure = list(game.state.structure)
    hidden = CARDS[structure[9]].id
    slots = {s["slot"]: s for s in view(game, 1)["structure"] if s}
    assert slots[9]["face_up"] is False and slots[9]["card"] is None
    assert f'"{hidden}"' not in all_views_text(game)

    events = game.apply(DiscardCard(CARDS[structure[14]].id))   # 9 is still under 15
    assert not [e for e in events if isinstance(e, CardRevealed)]
    events = game.apply(DiscardCard(CARDS[structure[15]].id))   # 10 is still under 16
    assert [e for e in events if isinstance(e, CardRevealed)] == [
        CardRevealed(age=1, slot=9, card=hidden)]
    for seat in (0, 1, None):
        slots = {s["slot"]: s for s in view(game, seat)["structure"] if s}
        assert slots[9] == {**slots[9], "face_up": True, "card": hidden, "accessible": True}
        assert slots[10]["face_up"] is False and slots[10]["card"] is None
    assert DiscardCard(hidden) in game.legal_actions()
    game.apply(DiscardCard(hidden))
