"""The twelve wonders, the 7-wonder cap and play again, through real actions.

Every test arranges an exact position with ``scenario`` and then plays it with
``Game.apply``: what is checked is what a player sees (coins, the pawn, the cards in each
city, who is to act, what is offered, the score sheet, the views).
"""

from __future__ import annotations

import json

import pytest

from app.engine import (
    TOKEN_BY_ID,
    WONDER_BY_ID,
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
    events_for,
    view,
)
from app.engine.events import (
    CardBuiltFromDiscard,
    CardDestroyed,
    GameEnded,
    PlayAgainGranted,
    PlayAgainLost,
    WonderRetired,
)
from app.engine.scenario import (
    give_token,
    ids_of_cards,
    ids_of_tokens,
    is_normal_turn,
    mark_wonder_built,
    new_position,
    place_card,
    place_cards,
    player,
    set_coins,
    set_tokens,
    set_wonders,
    supply_resources,
)
from app.engine.scoring import score_sheet
from app.engine.state import Victory

pytestmark = pytest.mark.compiled


# --------------------------------------------------------------------------- helpers
def kind(game: Game) -> DecisionKind:
    decision = game.decision
    assert decision is not None
    return decision.kind


def wonder_points(game: Game, seat: int) -> int:
    return score_sheet(game.state, seat).wonders


def plays_again(game: Game, seat: int) -> bool:
    """After ``seat``'s own move: ``seat`` has another ordinary turn."""
    return is_normal_turn(game, seat)


def quoted(text_id: str) -> str:
    return json.dumps(text_id)


# --------------------------------------------------------------------------- the Appian Way
@pytest.mark.parametrize(("opponent_coins", "opponent_after"), [(5, 2), (3, 0), (2, 0), (0, 0)])
def test_appian_way_coins_opponent_loss_play_again_points(opponent_coins: int,
                                                          opponent_after: int) -> None:
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["the_appian_way"])
    supply_resources(game, 0, "the_appian_way")
    player(game, 1).coins = opponent_coins
    assert game.wonder_payment(0, "the_appian_way").total == 0

    game.apply(BuildWonder("the_appian_way", "theater"), seat=0)

    assert player(game, 0).coins == 7 + 3
    assert player(game, 1).coins == opponent_after
    assert plays_again(game, 0)
    assert wonder_points(game, 0) == 3
    # The extra turn is really seat 0's: seat 1 may not act now.
    with pytest.raises(IllegalActionError) as err:
        game.apply(DiscardCard("altar"), seat=1)
    assert err.value.code == "not_your_turn"
    game.apply(DiscardCard("altar"), seat=0)
    assert game.to_act == 1


# --------------------------------------------------------------------------- Circus Maximus
def _circus_position() -> Game:
    game = new_position(["theater", "altar", "baths", "tavern"])
    set_wonders(game, 0, ["circus_maximus"])
    supply_resources(game, 0, "circus_maximus")  # lumber yard, quarry, stone pit, glassworks
    place_cards(game, 1, ["press", "drying_room", "logging_camp", "clay_pool"])
    return game


def test_circus_maximus_destroys_a_grey_card_of_the_builders_choice() -> None:
    game = _circus_position()
    assert view(game, 0)["players"][0]["unit_prices"]["papyrus"] == 4

    game.apply(BuildWonder("circus_maximus", "theater"), seat=0)

    decision = game.decision
    assert decision is not None
    assert decision.kind == DecisionKind.DESTROY_CARD and decision.seat == 0
    assert ids_of_cards(decision.options) == {"press", "drying_room"}
    assert set(game.legal_actions()) == {DestroyCard("press"), DestroyCard("drying_room")}
    assert view(game, 0)["decision"]["options"] in (["press", "drying_room"],
                                                   ["drying_room", "press"])
    # Brown cards, own cards and cards nobody owns cannot be chosen.
    for card in ("logging_camp", "glassworks", "altar"):
        assert not game.is_legal(DestroyCard(card))
    with pytest.raises(IllegalActionError) as err:
        game.apply(DestroyCard("logging_camp"))
    assert err.value.code == "not_offered"
    # The shield is applied at once, before the choice.
    assert game.state.pawn == 1

    events = game.apply(DestroyCard("press"), seat=0)

    assert CardDestroyed(seat=1, card="press") in events
    assert "press" not in view(game, 1)["players"][1]["cards"]
    assert "drying_room" in view(game, 1)["players"][1]["cards"]
    assert view(game, 1)["discard"][-1] == "press"
    assert view(game, 1)["players"][1]["production"]["papyrus"] == 1
    assert view(game, 0)["players"][0]["unit_prices"]["papyrus"] == 3
    assert game.state.pawn == 1
    assert wonder_points(game, 0) == 3
    assert is_normal_turn(game, 1)


def test_circus_maximus_without_grey_card_still_gives_shield_and_points() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["circus_maximus"])
    supply_resources(game, 0, "circus_maximus")
    place_card(game, 1, "logging_camp")         # brown only

    events = game.apply(BuildWonder("circus_maximus", "theater"), seat=0)

    assert is_normal_turn(game, 1)
    assert not any(isinstance(e, CardDestroyed) for e in events)
    assert view(game, 1)["players"][1]["cards"] == ["logging_camp"]
    assert game.state.pawn == 1
    assert wonder_points(game, 0) == 3


# --------------------------------------------------------------------------- the Colossus
@pytest.mark.parametrize(("builder", "pawn"), [(0, 2), (1, -2)])
def test_colossus_moves_the_pawn_two_spaces(builder: int, pawn: int) -> None:
    game = new_position(["theater", "altar", "baths"], first_player=builder)
    set_wonders(game, builder, ["the_colossus"])
    supply_resources(game, builder, "the_colossus")

    game.apply(BuildWonder("the_colossus", "theater"), seat=builder)

    assert view(game, 0)["military"]["pawn"] == pawn
    assert view(game, builder)["players"][builder]["shields_lead"] == 2
    assert score_sheet(game.state, builder).military == 2
    assert score_sheet(game.state, 1 - builder).military == 0
    assert wonder_points(game, builder) == 3
    assert game.to_act == 1 - builder


# --------------------------------------------------------------------------- the Great Library
def test_great_library_draws_three_box_tokens_privately() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["the_great_library"])
    supply_resources(game, 0, "the_great_library")
    board = ids_of_tokens(game.state.board_tokens)
    box = ids_of_tokens(game.state.box_tokens)
    assert len(board) == 5 and len(box) == 5

    events = game.apply(BuildWonder("the_great_library", "theater"), seat=0)

    decision = game.decision
    assert decision is not None
    assert decision.kind == DecisionKind.CHOOSE_LIBRARY_TOKEN and decision.seat == 0
    drawn = ids_of_tokens(decision.options)
    assert len(drawn) == 3 and drawn <= box
    assert {a.token for a in game.legal_actions()} == drawn  # type: ignore[attr-defined]
    for token in board | (box - drawn):
        assert not game.is_legal(ChooseProgressToken(token))

    # The builder sees the draw...
    mine = view(game, 0)
    assert set(mine["decision"]["options"]) == drawn
    (drawn_event,) = [e for e in events_for(events, 0) if e["type"] == "library_drawn"]
    assert set(drawn_event["tokens"]) == drawn
    # ...the opponent and spectators see only that 3 tokens were drawn.
    for other in (1, None):
        theirs = view(game, other)
        assert theirs["decision"] == {"kind": "choose_library_token", "seat": 0, "count": 3}
        text = json.dumps(theirs) + json.dumps(events_for(events, other))
        for token in box:
            assert quoted(token) not in text, (other, token)
        (hidden,) = [e for e in events_for(events, other) if e["type"] == "library_drawn"]
        assert hidden.get("count") == 3 and "tokens" not in hidden

    chosen = sorted(drawn)[0]
    events = game.apply(ChooseProgressToken(chosen), seat=0)

    assert TOKEN_BY_ID[chosen].index in player(game, 0).tokens
    assert view(game, 1)["players"][0]["progress_tokens"] == [chosen]
    # The board is untouched; the two not kept stay out of the game, unseen.
    assert set(view(game, 1)["progress_board"]) == board
    assert ids_of_tokens(game.state.box_tokens) == box - {chosen}
    for seat in (0, 1, None):
        text = json.dumps(view(game, seat)) + json.dumps(events_for(events, seat))
        for token in box - {chosen}:
            assert quoted(token) not in text, (seat, token)
    assert wonder_points(game, 0) == 4
    assert is_normal_turn(game, 1)


def test_great_library_token_effect_applies() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_tokens(game, board=["law", "masonry", "economy", "strategy", "theology"],
               box=["agriculture", "philosophy", "urbanism"])
    set_wonders(game, 0, ["the_great_library"])
    supply_resources(game, 0, "the_great_library")

    game.apply(BuildWonder("the_great_library", "theater"), seat=0)
    decision = game.decision
    assert decision is not None
    assert ids_of_tokens(decision.options) == {"agriculture", "philosophy", "urbanism"}
    game.apply(ChooseProgressToken("agriculture"), seat=0)

    assert player(game, 0).coins == 7 + 6
    sheet = score_sheet(game.state, 0)
    assert sheet.progress == 4 and sheet.wonders == 4
    assert ids_of_tokens(game.state.box_tokens) == {"philosophy", "urbanism"}


def test_great_library_with_empty_box_gives_no_decision() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_tokens(game, board=["law", "masonry", "economy", "strategy", "theology"], box=[])
    set_wonders(game, 0, ["the_great_library"])
    supply_resources(game, 0, "the_great_library")

    game.apply(BuildWonder("the_great_library", "theater"), seat=0)

    assert is_normal_turn(game, 1)
    assert wonder_points(game, 0) == 4


# --------------------------------------------------------------------------- the Great Lighthouse
def test_great_lighthouse_produces_one_raw_resource_each_turn() -> None:
    game = new_position(["theater", "altar", "stable", "tavern", "walls", "garrison"])
    set_wonders(game, 0, ["the_great_lighthouse"])
    # wood 2 + stone 2 + 2 papyrus at 2 each, nobody produces anything.
    player(game, 0).coins = 8
    assert game.wonder_payment(0, "the_great_lighthouse").total == 8

    game.apply(BuildWonder("the_great_lighthouse", "theater"), seat=0)
    assert player(game, 0).coins == 0
    assert view(game, 0)["players"][0]["production_choices"] == [["wood", "clay", "stone"]]
    # It does not raise the opponent's prices.
    assert view(game, 1)["players"][1]["unit_prices"] == {
        "wood": 2, "clay": 2, "stone": 2, "glass": 2, "papyrus": 2}
    game.apply(DiscardCard("altar"), seat=1)

    # Wood this turn, with no coin.
    assert BuildCard("stable") in game.legal_actions()
    game.apply(BuildCard("stable"), seat=0)
    assert player(game, 0).coins == 0
    assert "stable" in view(game, 0)["players"][0]["cards"]
    game.apply(DiscardCard("tavern"), seat=1)

    # Clay the next turn; but only one unit per turn: 2 stone still cost 2.
    assert game.card_payment(0, "walls").total == 2
    assert BuildCard("walls") not in game.legal_actions()
    assert BuildCard("garrison") in game.legal_actions()
    game.apply(BuildCard("garrison"), seat=0)
    assert player(game, 0).coins == 0
    assert wonder_points(game, 0) == 4


# --------------------------------------------------------------------------- the Hanging Gardens
def test_hanging_gardens_six_coins_play_again_points() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["the_hanging_gardens"])
    supply_resources(game, 0, "the_hanging_gardens")

    game.apply(BuildWonder("the_hanging_gardens", "theater"), seat=0)

    assert player(game, 0).coins == 7 + 6
    assert player(game, 1).coins == 7
    assert plays_again(game, 0)
    assert wonder_points(game, 0) == 3


# --------------------------------------------------------------------------- the Mausoleum
def _mausoleum_position(cards: list[str]) -> Game:
    game = new_position(cards)
    set_wonders(game, 0, ["the_mausoleum"])
    supply_resources(game, 0, "the_mausoleum")
    return game


def test_mausoleum_builds_a_discarded_card_for_free_with_its_effects() -> None:
    game = _mausoleum_position(["altar", "tavern", "theater", "baths"])
    removed = ids_of_cards(game.state.removed_cards)
    game.apply(DiscardCard("altar"), seat=0)
    game.apply(DiscardCard("tavern"), seat=1)
    coins = player(game, 0).coins

    game.apply(BuildWonder("the_mausoleum", "theater"), seat=0)

    decision = game.decision
    assert decision is not None
    assert decision.kind == DecisionKind.BUILD_FROM_DISCARD and decision.seat == 0
    # Exactly the discard pile: not the tucked card, not the cards removed at setup.
    assert ids_of_cards(decision.options) == {"altar", "tavern"}
    assert set(view(game, 1)["decision"]["options"]) == {"altar", "tavern"}
    assert not game.is_legal(BuildFromDiscard("theater"))
    for card in removed:
        assert not game.is_legal(BuildFromDiscard(card))

    events = game.apply(BuildFromDiscard("tavern"), seat=0)

    assert CardBuiltFromDiscard(seat=0, card="tavern") in events
    assert player(game, 0).coins == coins + 4        # Tavern's coins, nothing paid
    assert "tavern" in view(game, 1)["players"][0]["cards"]
    assert view(game, 1)["discard"] == ["altar"]
    assert wonder_points(game, 0) == 2
    assert is_normal_turn(game, 1)


def test_mausoleum_offers_a_card_destroyed_by_circus_maximus() -> None:
    game = new_position(["theater", "altar", "baths", "tavern"])
    set_wonders(game, 0, ["circus_maximus", "the_mausoleum"])
    supply_resources(game, 0, "circus_maximus")
    supply_resources(game, 0, "the_mausoleum")
    place_card(game, 1, "drying_room")
    assert ids_of_cards(player(game, 0).cards) >= {"glassworks", "press"}

    game.apply(BuildWonder("circus_maximus", "theater"), seat=0)
    game.apply(DestroyCard("drying_room"), seat=0)
    game.apply(DiscardCard("altar"), seat=1)
    game.apply(BuildWonder("the_mausoleum", "baths"), seat=0)

    decision = game.decision
    assert decision is not None
    assert ids_of_cards(decision.options) == {"drying_room", "altar"}
    game.apply(BuildFromDiscard("drying_room"), seat=0)
    assert "drying_room" in view(game, 0)["players"][0]["cards"]
    assert view(game, 0)["players"][0]["production"]["papyrus"] == 2
    assert view(game, 0)["discard"] == ["altar"]


def test_mausoleum_green_card_forming_a_pair_gives_a_progress_token() -> None:
    game = _mausoleum_position(["altar", "laboratory", "theater", "baths"])
    place_card(game, 0, "workshop")                 # plumb line
    board = ids_of_tokens(game.state.board_tokens)
    game.apply(DiscardCard("altar"), seat=0)
    game.apply(DiscardCard("laboratory"), seat=1)
    game.apply(BuildWonder("the_mausoleum", "theater"), seat=0)

    game.apply(BuildFromDiscard("laboratory"), seat=0)

    decision = game.decision
    assert decision is not None
    assert decision.kind == DecisionKind.CHOOSE_PROGRESS and decision.seat == 0
    assert ids_of_tokens(decision.options) == board
    token = sorted(board)[0]
    game.apply(ChooseProgressToken(token), seat=0)
    assert view(game, 1)["players"][0]["progress_tokens"] == [token]
    assert token not in view(game, 1)["progress_board"]
    assert score_sheet(game.state, 0).green == 1 + 1
    assert game.to_act == 1


def test_mausoleum_with_empty_discard_has_no_effect_but_points() -> None:
    game = _mausoleum_position(["theater", "altar", "baths"])
    assert game.state.discard == []

    game.apply(BuildWonder("the_mausoleum", "theater"), seat=0)

    assert is_normal_turn(game, 1)
    assert wonder_points(game, 0) == 2
    # The tucked card did not go to the discard pile.
    assert view(game, 1)["discard"] == []


# --------------------------------------------------------------------------- Piraeus
def test_piraeus_produces_glass_or_papyrus_and_plays_again() -> None:
    game = new_position(["theater", "apothecary", "altar", "workshop", "baths"])
    set_wonders(game, 0, ["piraeus"])
    supply_resources(game, 0, "piraeus")
    player(game, 0).coins = 0

    game.apply(BuildWonder("piraeus", "theater"), seat=0)
    assert plays_again(game, 0)
    assert wonder_points(game, 0) == 2

    # Glass on the extra turn...
    game.apply(BuildCard("apothecary"), seat=0)
    assert player(game, 0).coins == 0
    assert game.to_act == 1
    game.apply(DiscardCard("altar"), seat=1)
    # ...papyrus on the next one.
    game.apply(BuildCard("workshop"), seat=0)
    assert player(game, 0).coins == 0
    assert {"apothecary", "workshop"} <= set(view(game, 0)["players"][0]["cards"])
    # Not counted in the opponent's price.
    assert view(game, 1)["players"][1]["unit_prices"]["glass"] == 2


# --------------------------------------------------------------------------- the Pyramids
def test_pyramids_nine_points_and_no_extra_turn() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["the_pyramids"])
    supply_resources(game, 0, "the_pyramids")
    before = score_sheet(game.state, 0).total

    game.apply(BuildWonder("the_pyramids", "theater"), seat=0)

    assert wonder_points(game, 0) == 9
    assert score_sheet(game.state, 0).total == before + 9
    assert player(game, 0).coins == 7
    assert game.to_act == 1


# --------------------------------------------------------------------------- the Sphinx
def test_sphinx_six_points_and_play_again() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["the_sphinx"])
    supply_resources(game, 0, "the_sphinx")

    game.apply(BuildWonder("the_sphinx", "theater"), seat=0)

    assert plays_again(game, 0)
    assert wonder_points(game, 0) == 6
    assert player(game, 0).coins == 7
    game.apply(BuildCard("altar"), seat=0)
    assert game.to_act == 1


# --------------------------------------------------------------------------- the Statue of Zeus
def test_statue_of_zeus_destroys_a_brown_card_and_production_drops() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["the_statue_of_zeus"])
    # Lumber Yard, Clay Pool, Quarry, Press, Drying Room.
    supply_resources(game, 0, "the_statue_of_zeus")
    place_cards(game, 1, ["logging_camp", "sawmill", "stone_pit", "glassworks"])
    assert view(game, 0)["players"][0]["unit_prices"]["wood"] == 2 + 3

    game.apply(BuildWonder("the_statue_of_zeus", "theater"), seat=0)

    decision = game.decision
    assert decision is not None and decision.kind == DecisionKind.DESTROY_CARD
    assert ids_of_cards(decision.options) == {"logging_camp", "sawmill", "stone_pit"}
    assert not game.is_legal(DestroyCard("glassworks"))
    assert game.state.pawn == 1

    game.apply(DestroyCard("sawmill"), seat=0)

    seat1 = view(game, 0)["players"][1]
    assert "sawmill" not in seat1["cards"]
    assert seat1["production"]["wood"] == 1
    assert view(game, 0)["players"][0]["unit_prices"]["wood"] == 2 + 1
    assert view(game, 0)["discard"] == ["sawmill"]
    assert wonder_points(game, 0) == 3
    assert game.to_act == 1


def test_statue_of_zeus_without_brown_card() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["the_statue_of_zeus"])
    supply_resources(game, 0, "the_statue_of_zeus")
    place_card(game, 1, "glassworks")

    game.apply(BuildWonder("the_statue_of_zeus", "theater"), seat=0)

    assert is_normal_turn(game, 1)
    assert "glassworks" in view(game, 1)["players"][1]["cards"]
    assert game.state.pawn == 1
    assert wonder_points(game, 0) == 3


# --------------------------------------------------------------------------- the Temple of Artemis
def test_temple_of_artemis_twelve_coins_play_again_no_points() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["the_temple_of_artemis"])
    supply_resources(game, 0, "the_temple_of_artemis")

    game.apply(BuildWonder("the_temple_of_artemis", "theater"), seat=0)

    assert player(game, 0).coins == 7 + 12
    assert plays_again(game, 0)
    assert wonder_points(game, 0) == 0


# --------------------------------------------------------------------------- the 7-wonder cap
@pytest.mark.parametrize("unbuilt_owner", [1, 0])
def test_seventh_wonder_sends_the_last_unbuilt_wonder_out_of_the_game(unbuilt_owner: int) -> None:
    """Rulebook example: Dušan (seat 1) builds the Colossus, the 7th wonder; his Pyramids leave
    the game. With unbuilt_owner=0 the leftover wonder belongs to the other player."""
    game = new_position(["theater", "altar", "baths", "tavern"], first_player=1)
    tucked = iter(["courthouse", "palace", "town_hall", "obelisk", "gardens", "senate"])
    if unbuilt_owner == 1:
        set_wonders(game, 0, ["the_great_lighthouse", "the_temple_of_artemis",
                              "the_statue_of_zeus", "the_hanging_gardens"])
        set_wonders(game, 1, ["the_colossus", "the_pyramids", "piraeus", "the_appian_way"])
        built = {0: ["the_great_lighthouse", "the_temple_of_artemis", "the_statue_of_zeus",
                     "the_hanging_gardens"], 1: ["piraeus", "the_appian_way"]}
    else:
        set_wonders(game, 0, ["the_great_lighthouse", "the_temple_of_artemis",
                              "the_statue_of_zeus", "the_pyramids"])
        set_wonders(game, 1, ["the_colossus", "the_sphinx", "piraeus", "the_appian_way"])
        built = {0: ["the_great_lighthouse", "the_temple_of_artemis", "the_statue_of_zeus"],
                 1: ["the_sphinx", "piraeus", "the_appian_way"]}
    for seat, wonders in built.items():
        for w in wonders:
            mark_wonder_built(game, seat, w, next(tucked))
    assert game.state.wonders_built == 6
    supply_resources(game, 1, "the_colossus")
    set_coins(game, {0: 30, 1: 30})

    events = game.apply(BuildWonder("the_colossus", "theater"), seat=1)

    assert WonderRetired(seat=unbuilt_owner, wonder="the_pyramids") in events
    assert view(game, 0)["wonders_built"] == 7
    owner_wonders = [w["wonder"] for w in view(game, 0)["players"][unbuilt_owner]["wonders"]]
    assert "the_pyramids" not in owner_wonders
    assert len(owner_wonders) == 3
    assert WONDER_BY_ID["the_pyramids"].index not in player(game, unbuilt_owner).wonders
    for seat in (0, 1):
        assert "the_pyramids" not in [w["wonder"] for w in view(game, seat)["players"][seat]
                                      ["wonders"]]
    assert score_sheet(game.state, unbuilt_owner).wonders == sum(
        WONDER_BY_ID[w].effects.points for w in built[unbuilt_owner]
        + (["the_colossus"] if unbuilt_owner == 1 else []))

    # Nobody can build a wonder any more.
    for _ in range(2):
        seat = game.to_act
        assert seat is not None
        assert not any(isinstance(a, BuildWonder) for a in game.legal_actions())
        accessible = ids_of_cards(game.state.structure[s] for s in game.state.accessible)
        card = sorted(accessible)[0]
        with pytest.raises(IllegalActionError) as err:
            game.apply(BuildWonder("the_pyramids", card), seat=seat)
        assert err.value.code in ("wonder_cap", "not_your_wonder")
        game.apply(DiscardCard(card), seat=seat)


# --------------------------------------------------------------------------- play again
def test_play_again_chains_through_extra_turns() -> None:
    game = new_position(["theater", "altar", "baths", "tavern", "stone_reserve"])
    wonders = ["the_temple_of_artemis", "the_hanging_gardens", "the_sphinx"]
    set_wonders(game, 0, wonders)
    for w in wonders:
        supply_resources(game, 0, w)

    game.apply(BuildWonder("the_temple_of_artemis", "theater"), seat=0)
    assert plays_again(game, 0)
    game.apply(BuildWonder("the_hanging_gardens", "altar"), seat=0)
    assert plays_again(game, 0)
    events = game.apply(BuildWonder("the_sphinx", "baths"), seat=0)
    assert PlayAgainGranted(seat=0) in events
    assert plays_again(game, 0)
    game.apply(DiscardCard("tavern"), seat=0)
    assert game.to_act == 1
    assert player(game, 0).coins == 7 + 12 + 6 + 2


def test_play_again_with_the_last_card_of_an_age_is_lost() -> None:
    game = new_position(["theater"])
    set_wonders(game, 0, ["the_sphinx"])
    player(game, 0).coins = 8          # clay 2 + stone 2 + 2 glass at 2: nothing placed

    events = game.apply(BuildWonder("the_sphinx", "theater"), seat=0)

    assert PlayAgainLost(seat=0) in events
    assert not any(isinstance(e, PlayAgainGranted) for e in events)
    assert game.state.age == 2
    decision = game.decision
    assert decision is not None
    # Pawn in the centre: the player who took the last card chooses who starts Age II.
    assert decision.kind == DecisionKind.CHOOSE_STARTER and decision.seat == 0
    assert not any(isinstance(a, BuildCard | DiscardCard | BuildWonder)
                   for a in game.legal_actions())
    game.apply(ChooseStarter(1), seat=0)
    assert is_normal_turn(game, 1)
    assert wonder_points(game, 0) == 6


def test_decision_from_the_last_card_of_an_age_comes_before_the_age_ends() -> None:
    game = new_position(["theater"])
    set_wonders(game, 0, ["the_statue_of_zeus"])
    place_card(game, 1, "clay_pit")
    player(game, 0).coins = 11         # wood 2, clay 3, stone 2, 2 papyrus at 2

    game.apply(BuildWonder("the_statue_of_zeus", "theater"), seat=0)
    assert game.state.age == 1
    assert kind(game) == DecisionKind.DESTROY_CARD and game.to_act == 0

    game.apply(DestroyCard("clay_pit"), seat=0)
    assert game.state.age == 2
    decision = game.decision
    assert decision is not None
    # The pawn is on seat 1's side (Zeus's shield): seat 1, the weaker, chooses.
    assert decision.kind == DecisionKind.CHOOSE_STARTER and decision.seat == 1


# --------------------------------------------------------------------------- military supremacy
def test_military_supremacy_from_a_wonder_ends_the_game_despite_a_pending_destroy() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["circus_maximus"])
    supply_resources(game, 0, "circus_maximus")
    place_card(game, 1, "press")               # a grey card: a destroy decision would follow
    game.state.pawn = 8
    game.state.loot[1] = [False, False]

    events = game.apply(BuildWonder("circus_maximus", "theater"), seat=0)

    assert game.is_over
    assert game.decision is None and game.legal_actions() == []
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.victory) == (0, "military")
    assert events[-1] == GameEnded(winner=0, victory=Victory.MILITARY)
    assert "press" in view(game, 1)["players"][1]["cards"]
    with pytest.raises(IllegalActionError) as err:
        game.apply(DestroyCard("press"))
    assert err.value.code == "game_over"


def test_military_supremacy_from_a_wonder_ends_the_game_despite_play_again() -> None:
    game = new_position(["theater", "altar", "baths"], first_player=1)
    set_wonders(game, 1, ["the_colossus"])
    supply_resources(game, 1, "the_colossus")
    give_token(game, 1, "theology")            # the Colossus now has play again
    game.state.pawn = -7
    game.state.loot[0] = [False, False]

    game.apply(BuildWonder("the_colossus", "theater"), seat=1)

    assert game.is_over and game.to_act is None
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.winner, outcome.victory) == (1, "military")
    assert view(game, 0)["military"]["pawn"] == -9
    with pytest.raises(IllegalActionError) as err:
        game.apply(DiscardCard("altar"), seat=1)
    assert err.value.code == "game_over"


# --------------------------------------------------------------------------- wonder costs
def test_wonder_cost_is_paid_by_trading_like_a_card() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["the_pyramids"])
    place_cards(game, 1, ["quarry", "stone_pit", "press"])  # opponent: 2 stone, 1 papyrus
    place_card(game, 0, "shelf_quarry")                # builder: 2 stone
    # 1 missing stone at 2+2, 1 papyrus at 2+1.
    player(game, 0).coins = 6
    assert BuildWonder("the_pyramids", "theater") not in game.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        game.apply(BuildWonder("the_pyramids", "theater"), seat=0)
    assert err.value.code == "cannot_afford"
    assert player(game, 0).coins == 6 and game.state.wonders_built == 0

    player(game, 0).coins = 7
    assert BuildWonder("the_pyramids", "theater") in game.legal_actions()
    events = game.apply(BuildWonder("the_pyramids", "theater"), seat=0)

    assert player(game, 0).coins == 0
    assert player(game, 1).coins == 7                  # trading pays the bank
    payment = events[0].payment.to_json()
    assert payment["total"] == 7 and payment["trade"] == 7
    assert sorted((b["resource"], b["units"], b["unit_price"]) for b in payment["bought"]) == [
        ("papyrus", 1, 3), ("stone", 1, 4)]


def test_wonder_cost_uses_reserve_prices() -> None:
    game = new_position(["theater", "altar", "baths"])
    set_wonders(game, 0, ["the_pyramids"])
    place_cards(game, 1, ["quarry", "stone_pit", "press"])
    place_card(game, 0, "stone_reserve")
    # 3 stone at 1 + papyrus at 3.
    assert game.wonder_payment(0, "the_pyramids").total == 6
    game.apply(BuildWonder("the_pyramids", "theater"), seat=0)
    assert player(game, 0).coins == 1
