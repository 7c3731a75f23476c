"""Audit: the edges of the rules, each probed by hand through the public API and the
scenario helpers, each citing its rulebook lines (RO/PT = first-edition rulebooks in
../shared/rulebooks/7wonders-rules-{ro,pt}.txt)."""

from __future__ import annotations

from collections import Counter

import pytest

from app.classic import Game, Options, view
from app.classic.scenario import coins, hand, put, stages, table

from .audit_oracle import CARD_ROWS


def _advance(game: Game, turn: int, age: int | None = None) -> None:
    """Every seat discards (or takes its first action) until ``age``/``turn``."""
    while (game.age < (age or game.age) or game.turn < turn) and not game.over:
        for seat in list(game.pending()):
            actions = game.legal_actions(seat)
            discards = [a for a in actions if str(a).startswith("discard")]
            game.apply(seat, (discards or actions)[0])


def _coins(game: Game) -> list[int]:
    return [seat["coins"] for seat in view(game, None)["seats"]]


def _actions(game: Game, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


# ---- Babylon B (RO L695-704, PT L552-569) ----

def test_babylon_b_plays_the_seventh_card_and_the_others_discard_theirs_without_coins() -> None:
    # RO L697-699 the 7th card built, discarded or used for a stage; RO L326-327 the others'
    # last card "se arunca fara ... 3 monede"
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 2)
    _advance(game, 6)
    before = _coins(game)
    pile = view(game, None)["discard_count"]
    last = {seat: view(game, seat)["you"]["hand"] for seat in range(3)}
    game.apply(0, f"discard:{last[0][0]}")
    game.apply(1, f"build:{last[1][0]}") if f"build:{last[1][0]}:0:0" in _actions(game, 1) \
        else game.apply(1, f"discard:{last[1][0]}")
    game.apply(2, f"discard:{last[2][0]}")
    assert game.phase == "seventh" and game.pending() == {0: "seventh"}
    assert view(game, 0)["you"]["hand"] == [last[0][1]]
    assert any(a.startswith("discard:") for a in _actions(game, 0))
    # seats 1 and 2 gave their last card to the pile, no coins for it
    gained = [after - was for after, was in zip(_coins(game), before, strict=True)]
    assert gained[2] == 3
    # seats 0 and 2 discarded, seat 1 maybe; seats 1 and 2 left their last card
    assert view(game, None)["discard_count"] == pile + 2 + (1 if gained[1] == 3 else 0) + 2
    game.apply(0, f"discard:{last[0][1]}")
    assert game.age == 2 and _coins(game)[0] == before[0] + 6


def test_babylon_b_builds_stage_two_on_turn_six_and_still_plays_the_seventh_card() -> None:
    # RO L701-703 / PT L567-569: stage 2 may be built in turn 6, then the last card is played
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 1)
    put(game, 0, "sawmill", "glassworks")   # wood 2 + glass: stage B2
    _advance(game, 6)
    card = view(game, 0)["you"]["hand"][0]
    game.apply(0, f"wonder:{card}")
    for seat in (1, 2):
        game.apply(seat, game.legal_actions(seat)[-1])
    assert game.pending() == {0: "seventh"}


def test_babylon_seventh_card_cannot_buy_with_coins_earned_in_turn_six() -> None:
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 2)
    _advance(game, 6)
    coins(game, 0, 0)
    hand(game, 0, "stockade", "barracks")   # Barracks needs ore: Rhodos sells it for 2
    for seat in (1, 2):
        game.apply(seat, game.legal_actions(seat)[-1])
    game.apply(0, "discard:stockade")       # +3 coins during turn 6
    assert game.pending() == {0: "seventh"}
    assert _actions(game, 0) == ["discard:barracks"]


# ---- Halikarnassos (RO L671-674, L694-703; PT L535-539) ----

def test_halikarnassos_with_an_empty_pile_builds_nothing_and_the_turn_goes_on() -> None:
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    put(game, 0, "foundry", "ore_vein")     # ore 3: stage A2
    card = view(game, 0)["you"]["hand"][0]
    game.apply(0, f"wonder:{card}")
    for seat in (1, 2):
        game.apply(seat, game.legal_actions(seat)[0])
    assert (game.turn, game.phase) == (2, "pick")
    assert game.pending() == {0: "pick", 1: "pick", 2: "pick"}


def test_halikarnassos_on_turn_six_sees_the_cards_discarded_that_turn() -> None:
    # RO L702-703 "Daca jucatorii au aruncat carti in acest tur (cum este cazul in turul 6)"
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    put(game, 0, "foundry", "ore_vein")
    _advance(game, 6)
    last = {seat: view(game, seat)["you"]["hand"] for seat in range(3)}
    game.apply(0, f"wonder:{last[0][0]}")
    game.apply(1, f"discard:{last[1][0]}")
    game.apply(2, f"discard:{last[2][0]}")
    assert game.pending() == {0: "discard_build"} and game.age == 1
    pile = view(game, 0)["you"]["pile"]
    for card in (last[0][1], *last[1], *last[2]):
        assert card in pile
    assert "pile" not in view(game, 1)["you"] and "pile" not in str(view(game, None))
    owned = set(view(game, None)["seats"][0]["cards"])
    offered = {a.split(":")[1] for a in _actions(game, 0)}
    assert offered == set(pile) - owned


# ---- Olympia A (RO L671, PT L746) ----

def test_olympia_a_builds_free_once_per_age_and_again_next_age() -> None:
    game = table("olympia", "gizah", "rhodos")
    stages(game, 0, 2)
    hand(game, 0, "stockade", "barracks", "baths", "lumber_yard", "altar", "loom", "press")
    assert "olympia:baths" in _actions(game, 0)
    game.apply(0, "olympia:baths")
    for seat in (1, 2):
        game.apply(seat, game.legal_actions(seat)[0])
    assert "baths" in view(game, None)["seats"][0]["cards"]
    assert not [a for a in _actions(game, 0) if a.startswith("olympia:")]
    _advance(game, 1, age=2)
    assert [a for a in _actions(game, 0) if a.startswith("olympia:")]


# ---- yellow cards and trading (RO L257-274, L1030-1049) ----

def test_vineyard_counts_the_brown_cards_neighbours_build_the_same_turn() -> None:
    game = table("olympia", "gizah", "rhodos")
    put(game, 0, "clay_pool")
    put(game, 2, "stone_pit")
    hand(game, 0, "vineyard")
    hand(game, 1, "lumber_yard", "ore_vein")
    hand(game, 2, "clay_pit")
    game.apply(0, "build:vineyard")
    game.apply(1, "build:lumber_yard")
    game.apply(2, "build:clay_pit:0:0")
    assert _coins(game)[0] == 3 + 1 + 1 + 2      # own, left's new one, right's two


def test_bazar_counts_the_grey_cards_neighbours_build_the_same_turn() -> None:
    game = table("olympia", "gizah", "rhodos")
    hand(game, 0, "bazar")
    hand(game, 1, "loom")
    hand(game, 2, "press")
    game.apply(2, "build:press")
    game.apply(1, "build:loom")
    game.apply(0, "build:bazar")
    assert _coins(game)[0] == 3 + 2 * 2


def test_two_seats_buy_the_same_unit_of_one_neighbour_in_one_turn() -> None:
    # RO L269-274 Example B: both neighbours buy the same stones in one turn
    game = table("olympia", "gizah", "rhodos")
    hand(game, 0, "baths")
    hand(game, 2, "baths")
    hand(game, 1, "altar")
    game.apply(0, "build:baths:2:0")
    game.apply(2, "build:baths:0:2")
    game.apply(1, "build:altar")
    assert _coins(game) == [1, 7, 1]


def test_coins_earned_this_turn_do_not_pay_this_turn() -> None:
    # RO L257-259 and Example C RO L276-286
    game = table("olympia", "gizah", "rhodos")
    coins(game, 0, 1)
    put(game, 0, "stone_pit")
    hand(game, 0, "aqueduct")                # stone 3: needs two more stones, 4 coins
    put(game, 1, "quarry")
    hand(game, 1, "baths")
    hand(game, 2, "altar")
    assert not [a for a in _actions(game, 0) if a.startswith("build:aqueduct")]
    game.apply(1, "build:baths")
    game.apply(2, "build:altar")
    before = game.state_hash()
    with pytest.raises(Exception) as refused:
        game.apply(0, "build:aqueduct:4:0")
    assert getattr(refused.value, "code", None) in ("cannot_afford", "cannot_produce")
    assert game.state_hash() == before


def test_haven_lighthouse_chamber_arena_coins_when_built() -> None:
    # RO L1063-1090: coins once, from the own city at that moment
    game = table("olympia", "gizah", "rhodos")
    stages(game, 0, 2)
    put(game, 0, "lumber_yard", "clay_pool", "loom", "press", "tavern", "forum", "caravansery")
    put(game, 0, "dispensary")
    coins(game, 0, 0)
    for card, gain in (("haven", 2), ("lighthouse", 4), ("chamber_of_commerce", 4),
                       ("arena", 6)):
        trial = game.clone()
        hand(trial, 0, card)
        free = [a for a in _actions(trial, 0) if a.startswith(("build:", "olympia:"))]
        assert free, card
        trial.apply(0, free[0])
        for seat in (1, 2):
            trial.apply(seat, trial.legal_actions(seat)[-1])
        assert _coins(trial)[0] == gain, card


# ---- setup by player count (RO L120-146) ----

@pytest.mark.parametrize("players", range(3, 8))
def test_each_age_deals_the_table_cards_and_players_plus_two_guilds(players: int) -> None:
    guilds = {row["id"] for row in CARD_ROWS if row["color"] == "purple"}
    game = Game.new(11 + players, Options(players=players))
    for age in (1, 2, 3):
        _advance(game, 1, age=age)
        dealt: Counter[str] = Counter()
        for seat in range(players):
            dealt.update(view(game, seat)["you"]["hand"])
        expected: Counter[str] = Counter()
        for row in CARD_ROWS:
            if row["age"] == str(age):
                expected[row["id"]] += sum(int(m) <= players
                                           for m in row["min_players"].split(";"))
        dealt_guilds = {c: n for c, n in dealt.items() if c in guilds}
        assert Counter({c: n for c, n in dealt.items() if c not in guilds}) == expected
        assert sum(dealt_guilds.values()) == (players + 2 if age == 3 else 0)
        assert len(dealt_guilds) == sum(dealt_guilds.values())


# ---- readings the audit raised, settled on the first-edition words (rulings 1, 2, 5, 7, 8) ----

def test_a_card_built_from_the_pile_this_age_does_not_chain_this_age() -> None:
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    put(game, 0, "foundry", "ore_vein")     # ore 3: stage A2
    _advance(game, 1, age=2)                # all of Age I discarded: Scriptorium in the pile
    assert "scriptorium" not in view(game, None)["seats"][0]["cards"]
    card = view(game, 0)["you"]["hand"][0]
    game.apply(0, f"wonder:{card}")
    for seat in (1, 2):
        game.apply(seat, f"discard:{view(game, seat)['you']['hand'][0]}")
    assert game.pending() == {0: "discard_build"}
    game.apply(0, "halikarnassos:scriptorium")
    hand(game, 0, "library")                # stone 2 + textile: no stone of its own
    coins(game, 0, 0)
    assert "build:library:0:0" not in _actions(game, 0)


def test_vineyard_counts_a_brown_seventh_card_built_the_same_turn() -> None:
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 2)
    _advance(game, 6)
    hand(game, 0, "stockade", "lumber_yard")
    hand(game, 1, "vineyard", "altar")
    hand(game, 2, "altar", "theater")
    before = _coins(game)[1]
    game.apply(0, "discard:stockade")
    game.apply(1, "build:vineyard")
    game.apply(2, "build:altar")
    game.apply(0, "build:lumber_yard")       # the seventh card, still turn 6
    assert _coins(game)[1] - before == 1


def test_vineyard_counts_a_brown_card_halikarnassos_builds_the_same_turn() -> None:
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    put(game, 0, "foundry", "ore_vein")
    _advance(game, 2)
    hand(game, 0, "altar", "theater")
    hand(game, 1, "vineyard", "altar")
    hand(game, 2, "clay_pit", "theater")
    before = _coins(game)[1]
    game.apply(0, "wonder:altar")
    game.apply(1, "build:vineyard")
    game.apply(2, "discard:clay_pit")
    game.apply(0, "halikarnassos:clay_pit")
    assert _coins(game)[1] - before == 3     # foundry, ore vein, and the clay pit


# ---- passing, conflicts, boards ----

@pytest.mark.parametrize(("age", "direction"), [(1, "left"), (2, "right"), (3, "left")])
def test_hands_pass_left_in_ages_one_and_three_and_right_in_age_two(age: int,
                                                                     direction: str) -> None:
    # RO L316-322 "in Era I ... din stanga", "Era a II-a ... din dreapta", "Era a III-a ...
    # din stanga"; the left neighbour is the one Age I passes to (clockwise)
    game = Game.new(5, Options(players=5))
    _advance(game, 1, age=age)
    hands = {seat: view(game, seat)["you"]["hand"] for seat in range(5)}
    for seat in range(5):
        game.apply(seat, f"discard:{hands[seat][0]}")
    for seat in range(5):
        target = game.left_of(seat) if direction == "left" else game.right_of(seat)
        assert sorted(view(game, target)["you"]["hand"]) == sorted(hands[seat][1:])


def test_conflicts_of_the_rulebook_example_alexandria_between_rhodes_and_ephesos() -> None:
    # RO L360-364 / PT L322-327: after Age II Alexandria (3) between Rhodes (5) and
    # Ephesos (2) takes -1 and +3; Age I gave -1 and +1 the same way (RO L351-357)
    game = table("rhodos", "alexandria", "ephesos")
    put(game, 0, "stockade", "barracks", "guard_tower", "walls")
    put(game, 1, "stockade", "walls")
    put(game, 2, "archery_range")
    _advance(game, 1, age=3)
    seats = view(game, None)["seats"]
    assert [s["shields"] for s in seats] == [5, 3, 2]
    assert sorted(seats[1]["tokens"]) == [-1, -1, 1, 3]
    assert sorted(seats[0]["tokens"]) == [1, 1, 3, 3]
    assert sorted(seats[2]["tokens"]) == [-1, -1, -1, -1]


def test_rhodos_stages_add_shields_and_side_b_its_coins() -> None:
    # RO L666 A2 "adauga doua Scuturi"; RO L685-687 B: 1 shield + 3 coins, 1 shield + 4 coins
    side_a = table("rhodos", "gizah", "babylon")
    stages(side_a, 0, 2)
    assert view(side_a, None)["seats"][0]["shields"] == 2
    side_b = table("rhodos", "gizah", "babylon", sides="B")
    put(side_b, 0, "quarry", "stone_pit")
    coins(side_b, 0, 0)
    card = view(side_b, 0)["you"]["hand"][0]
    side_b.apply(0, f"wonder:{card}")
    for seat in (1, 2):
        side_b.apply(seat, f"discard:{view(side_b, seat)['you']['hand'][0]}")
    shown = view(side_b, None)["seats"][0]
    assert (shown["shields"], shown["coins"]) == (1, 3)


@pytest.mark.parametrize(("side", "gains"), [("A", [0, 9, 0]), ("B", [4, 4, 4])])
def test_ephesos_stages_give_their_coins_once(side: str, gains: list[int]) -> None:
    # RO L668 A2: 9 coins; RO L688-690 B: 4 coins each "o singura data, imediat"
    game = table("ephesos", "gizah", "babylon", sides=side)
    put(game, 0, "stone_pit", "quarry", "sawmill", "glassworks", "loom", "press")
    coins(game, 0, 0)
    for stage in range(3):
        hand(game, 0, "altar", "theater", "baths")
        before = _coins(game)[0]
        game.apply(0, "wonder:altar")
        for seat in (1, 2):
            game.apply(seat, game.legal_actions(seat)[-1])
        assert _coins(game)[0] - before == gains[stage]


def test_alexandria_stage_resources_serve_only_alexandria() -> None:
    # RO L691 "aceste resurse nu pot fi cumparate de catre vecini"
    game = table("alexandria", "gizah", "babylon")
    stages(game, 0, 2)                      # A2: a raw material of its choice
    hand(game, 0, "stockade")               # wood: none of its own but the stage's
    hand(game, 1, "stockade")               # Gizah: Alexandria is its right neighbour
    assert "build:stockade:0:0" in _actions(game, 0)
    assert not [a for a in _actions(game, 1) if a.startswith("build:stockade")]


def test_olympia_b_copies_a_neighbours_scientists_guild_as_a_wildcard() -> None:
    # RO L698-706: a guild of a neighbour, scored as if Olympia had built it
    game = table("olympia", "gizah", "babylon", sides="B")
    _advance(game, 6, age=3)
    stages(game, 0, 3)
    put(game, 0, "apothecary", "workshop")  # compass, gear: a tablet makes a set
    put(game, 1, "scientists_guild")
    while not game.over:
        for seat in list(game.pending()):
            game.apply(seat, game.legal_actions(seat)[-1])
    outcome = game.outcome()
    assert outcome is not None
    sheet = outcome.to_json()["sheets"][0]
    assert sheet["copied_guild"] == "scientists_guild"
    assert sheet["science"] >= 1 + 1 + 1 + 7
