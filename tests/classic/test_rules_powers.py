"""The boards' powers at the edges other implementations get wrong (classic.md, rulings
7-11): Babylon B's seventh card, Halikarnassos' build from the pile at the end of the turn,
Olympia's free build and its copied guild."""

from __future__ import annotations

import pytest

from app.classic import IllegalActionError, view
from app.classic.cards import CARDS
from app.classic.events import CoinsGained, DiscardPileShown, NothingToBuild
from app.classic.scenario import coins, hand, put, stages, table

from .helpers import close, legal, pile, produce, sheet


def _to_turn_six(game) -> None:  # type: ignore[no-untyped-def]
    while game.turn < 6:
        close(game)


def test_babylon_b_plays_both_cards_of_the_sixth_turn() -> None:
    """RO L695-701, PT L552-567: with B2 built, the seventh card is played, not discarded."""
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 2)
    _to_turn_six(game)
    hand(game, 0, "altar", "theater")
    close(game, {0: "build:altar:0:0"})
    assert game.phase == "seventh" and game.pending() == {0: "seventh"}
    assert legal(game, 0) == ["build:theater:0:0", "discard:theater"]
    game.apply(0, "build:theater:0:0")
    assert {"altar", "theater"} <= game.cities[0].names and game.age == 2


def test_babylon_b_may_build_its_second_stage_in_turn_six_and_still_play_the_seventh() -> None:
    """RO L702-704, PT L567-569: B2 built in turn 6, the last card is played as well."""
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 1)
    _to_turn_six(game)
    produce(game, 0, wood=2, glass=1)
    hand(game, 0, "altar", "theater")
    close(game, {0: "wonder:altar:0:0"})
    assert game.phase == "seventh"
    before = game.cities[0].coins
    game.apply(0, "discard:theater")
    assert game.cities[0].coins == before + 3 and game.age == 2


def test_babylon_b_may_use_the_seventh_card_for_its_third_stage() -> None:
    """RO L697-698, PT L555-556: the seventh card may build the third stage."""
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 2)
    _to_turn_six(game)
    produce(game, 0, clay=2, papyrus=1)
    hand(game, 0, "altar", "theater")
    close(game, {0: "discard:altar"})
    game.apply(0, "wonder:theater:0:0")
    assert game.cities[0].built == 3


def test_babylon_b_seventh_card_is_bought_with_the_coins_held_when_turn_six_began() -> None:
    """RO L701 / PT L567: both cards are played in turn 6, so the seventh buys with the
    coins held at the start of that turn (RO L257-259, PT L194-195)."""
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 2)
    _to_turn_six(game)
    coins(game, 0, 2)
    hand(game, 0, "altar", "baths")  # Baths: a stone, from Gizah on the left for 2
    close(game, {0: "discard:altar"})
    assert game.cities[0].coins == 5 and "build:baths:2:0" in legal(game, 0)


def test_babylon_b_seventh_card_cannot_spend_the_coins_of_turn_six() -> None:
    """RO L257-259, RO L276-286 (Example C): a turn-6 discard's 3 coins, or the coins a
    neighbour pays in turn 6, serve from the next turn only; the sixth card's cost is
    spent already."""
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 2)
    _to_turn_six(game)
    coins(game, 0, 0)
    hand(game, 0, "altar", "baths")
    close(game, {0: "discard:altar"})
    assert game.cities[0].coins == 3 and legal(game, 0) == ["discard:baths"]
    with pytest.raises(IllegalActionError) as refused:
        game.apply(0, "build:baths:2:0")
    assert refused.value.code == "cannot_afford" and refused.value.params["coins"] == 0

    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 2)
    _to_turn_six(game)
    coins(game, 0, 3)
    hand(game, 0, "baths", "barracks")  # Barracks: an ore, from Rhodos on the right for 2
    hand(game, 1, "guard_tower", "altar")  # Gizah buys Babylon's clay for 2
    close(game, {0: "build:baths:2:0", 1: "build:guard_tower:0:2"})
    assert game.phase == "seventh" and game.cities[0].coins == 3 - 2 + 2
    assert "build:barracks:0:2" not in legal(game, 0)  # 1 coin left of the 3 it held


def test_without_the_second_stage_babylon_discards_the_seventh_card() -> None:
    """RO L326-327: side A, or B2 not built: the last card is discarded without coins."""
    game = table("babylon", "gizah", "rhodos", sides="B")
    _to_turn_six(game)
    close(game)
    assert game.phase == "pick" and game.age == 2


def test_halikarnassos_builds_from_the_pile_at_the_end_of_the_turn() -> None:
    """RO L671-674, PT L530-539: look through every discarded card and build one free, at
    the end of the turn the stage is built."""
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    produce(game, 0, ore=3)
    pile(game, "palace")
    hand(game, 0, "altar", "theater")
    events = close(game, {0: "wonder:altar:0:0"})
    shown = [e for e in events if isinstance(e, DiscardPileShown)]
    assert game.phase == "discard_build" and shown and "palace" in shown[0].cards
    assert "build:palace" not in legal(game, 1)
    coins_before = game.cities[0].coins
    game.apply(0, "halikarnassos:palace")
    assert "palace" in game.cities[0].names and game.cities[0].coins == coins_before
    assert game.phase == "pick" and game.turn == 2


def test_halikarnassos_may_take_a_card_discarded_that_same_turn() -> None:
    """PT L535-539, RO L700-703: cards discarded in the turn (the turn-6 discards) too."""
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    _to_turn_six(game)
    produce(game, 0, ore=3)
    game.pile.clear()
    hand(game, 0, "altar", "theater")
    hand(game, 1, "palace", "pawnshop")
    close(game, {0: "wonder:altar:0:0", 1: "discard:palace"})
    assert game.phase == "discard_build"
    # Seat 1's discard and the three turn-6 leftovers (Theater, Pawnshop, seat 2's).
    assert {"palace", "pawnshop", "theater"} <= set(view(game, 0)["you"]["pile"])
    assert len(view(game, 0)["you"]["pile"]) == 5
    game.apply(0, "halikarnassos:pawnshop")
    assert "pawnshop" in game.cities[0].names and game.age == 2


def test_halikarnassos_builds_before_the_age_ends_so_a_red_card_counts() -> None:
    """RO L349 (conflicts after turn 6) with PT L618-620 (the build at the end of the turn):
    a red card from the pile fights in that age's conflict."""
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    _to_turn_six(game)
    produce(game, 0, ore=3)
    pile(game, "stockade")
    hand(game, 0, "altar", "theater")
    close(game, {0: "wonder:altar:0:0"})
    game.apply(0, "halikarnassos:stockade")
    assert game.cities[0].tokens == [1, 1]


def test_halikarnassos_with_nothing_to_build_moves_on() -> None:
    """Ruling (docs/classic-rules.md): an empty pile, or one of names the city owns, gives
    nothing (RO L358-359: never two identical structures)."""
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    produce(game, 0, ore=3)
    put(game, 0, "palace")
    game.pile.clear()
    pile(game, "palace")
    hand(game, 0, "altar", "theater")
    hand(game, 1, "pawnshop")
    hand(game, 2, "pawnshop")
    events = close(game, {0: "wonder:altar:0:0", 1: "build:pawnshop:0:0",
                          2: "build:pawnshop:0:0"})
    assert any(isinstance(e, NothingToBuild) for e in events) and game.phase == "pick"


def test_only_halikarnassos_sees_the_pile_while_it_decides() -> None:
    """RO L671-672 (Halikarnassos looks through the discarded cards) with RO L365 (discards
    stay face down): the pile is a count for everyone else."""
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    produce(game, 0, ore=3)
    pile(game, "palace")
    hand(game, 0, "altar", "theater")
    close(game, {0: "wonder:altar:0:0"})
    assert "pile" in view(game, 0)["you"] and "pile" not in view(game, 1)["you"]
    game.apply(0, "halikarnassos:palace")
    assert "pile" not in view(game, 0)["you"]


def test_halikarnassos_b_builds_from_the_pile_with_each_stage() -> None:
    """RO L694-703, PT L609-618: each of the three B stages grants a build."""
    game = table("halikarnassos", "gizah", "rhodos", sides="B")
    for number in (1, 2, 3):
        stage = game.cities[0].stages[number - 1]
        for resource, count in enumerate(stage.cost):
            game.cities[0].produce[resource] += count
        game.cities[0].touch()
        game.legal_cache.clear()
        pile(game, ("palace", "pantheon", "senate")[number - 1])
        close(game, {0: "wonder:" + CARDS[game.hands[0][0]].id + ":0:0"})
        assert game.phase == "discard_build"
        game.apply(0, "halikarnassos:" + ("palace", "pantheon", "senate")[number - 1])
    assert {"palace", "pantheon", "senate"} <= game.cities[0].names


def test_olympia_a_builds_free_once_an_age() -> None:
    """RO L671, PT L520-522: once per age, a structure of choice for free."""
    game = table("olympia", "gizah", "rhodos")
    stages(game, 0, 2)
    coins(game, 0, 0)
    hand(game, 0, "palace", "pawnshop", "baths", "altar", "theater", "stockade", "tavern")
    close(game, {0: "olympia:palace"})
    assert "palace" in game.cities[0].names and game.cities[0].coins == 0
    hand(game, 0, "pantheon", *[CARDS[c].id for c in game.hands[0][1:]])
    with pytest.raises(IllegalActionError) as refused:
        game.apply(0, "olympia:pantheon")
    assert refused.value.code == "no_free_build"
    assert not any(a.startswith("olympia") for a in legal(game, 0))


def test_olympia_a_free_build_comes_back_each_age_and_an_unused_one_is_lost() -> None:
    """RO L671 "o data per Era": once in each age (ruling: an unused one is not carried)."""
    game = table("olympia", "gizah", "rhodos")
    stages(game, 0, 2)
    game.cities[0].free_used = True
    while game.age < 2:
        close(game)
    assert not game.cities[0].free_used
    hand(game, 0, "aqueduct", *[CARDS[c].id for c in game.hands[0][1:]])
    assert "olympia:aqueduct" in legal(game, 0)


def test_olympia_a_free_build_is_refused_for_a_card_that_costs_nothing() -> None:
    """Ruling (docs/classic-rules.md): a free build on a free card would waste the age's
    build; it is refused (RO L194-196: such a card is free anyway)."""
    game = table("olympia", "gizah", "rhodos")
    stages(game, 0, 2)
    hand(game, 0, "pawnshop")
    with pytest.raises(IllegalActionError) as refused:
        game.apply(0, "olympia:pawnshop")
    assert refused.value.code == "needless_free_build"


def test_olympia_b_copies_the_best_guild_of_a_neighbour() -> None:
    """RO L698-708, PT L589-598: at the end, one neighbour's guild scored as if built; its
    owner loses nothing."""
    game = table("olympia", "gizah", "rhodos", sides="B")
    stages(game, 0, 3)
    put(game, 1, "workers_guild")
    put(game, 2, "magistrates_guild", "altar", "theater", "pawnshop")
    put(game, 1, "lumber_yard")
    assert sheet(game, 0).copied_guild == "magistrates_guild"
    assert sheet(game, 0).guilds == 3
    assert sheet(game, 2).guilds == 0 and sheet(game, 1).guilds == 0


def test_olympia_b_does_not_copy_a_guild_it_owns() -> None:
    """Ruling: the copy counts "as if built" (RO L705-706) and a city never holds two
    identical structures (RO L358-359)."""
    game = table("olympia", "gizah", "rhodos", sides="B")
    stages(game, 0, 3)
    put(game, 0, "magistrates_guild")
    put(game, 1, "magistrates_guild", "altar")
    assert sheet(game, 0).copied_guild is None


def test_olympia_b_copying_the_scientists_guild_adds_a_symbol() -> None:
    """RO L705 and L1140-1145: a copied Scientists Guild gives a symbol of choice."""
    game = table("olympia", "gizah", "rhodos", sides="B")
    stages(game, 0, 3)
    put(game, 0, "apothecary", "workshop")
    put(game, 1, "scientists_guild")
    assert sheet(game, 0).copied_guild == "scientists_guild"
    assert sheet(game, 0).science == 1 + 1 + 1 + 7


def test_olympia_b_copying_shipowners_counts_the_copy() -> None:
    """RO L1130-1134 with RO L705-706: Shipowners counts itself; a copy, as if built, counts
    as one purple card of Olympia's."""
    game = table("olympia", "gizah", "rhodos", sides="B")
    stages(game, 0, 3)
    put(game, 0, "lumber_yard", "loom")
    put(game, 1, "shipowners_guild")
    assert sheet(game, 0).copied_guild == "shipowners_guild" and sheet(game, 0).guilds == 3


def test_ephesos_coins_arrive_at_once_and_serve_from_the_next_turn() -> None:
    """RO L666 and PT L525-529 (9 coins at once), RO L257-259 (usable next turn)."""
    game = table("ephesos", "gizah", "rhodos")
    stages(game, 0, 1)
    produce(game, 0, wood=2)
    coins(game, 0, 0)
    hand(game, 0, "altar", "baths", "pawnshop", "theater", "tavern", "stockade", "press")
    close(game, {0: "wonder:altar:0:0"})
    assert game.cities[0].coins == 9


def test_rhodos_shields_fight_in_every_later_conflict() -> None:
    """RO L665-666, PT L504-506: two shields added at the end of each age."""
    game = table("rhodos", "gizah", "olympia")
    stages(game, 0, 2)
    while game.age < 2:
        close(game)
    assert game.cities[0].tokens == [1, 1]


def test_babylon_a_symbol_is_chosen_at_the_end_to_maximise() -> None:
    """RO L670-672 and L705, PT L507-512: the symbol is chosen at the end of the game."""
    game = table("babylon", "gizah", "rhodos")
    stages(game, 0, 2)
    put(game, 0, "apothecary", "workshop")
    assert sheet(game, 0).science == 1 + 1 + 1 + 7 and sheet(game, 0).wildcards == ("tablet",)
    put(game, 0, "scriptorium")  # compass, gear, tablet + 1: a second tablet is not
    assert sheet(game, 0).science == 1 + 1 + 4 + 7  # better than another: 13 each way
    put(game, 0, "library")  # compass 1, gear 1, tablet 2: the symbol makes tablet 3
    assert sheet(game, 0).science == 1 + 1 + 9 + 7 and sheet(game, 0).wildcards == ("tablet",)


def test_vineyard_of_the_turn_counts_halikarnassos_build_from_the_pile() -> None:
    """Ruling 8: Halikarnassos builds at the end of the turn (RO L702-703, PT L535-537),
    the same turn: a neighbour's Vineyard built that turn counts the brown card too (RO
    L1030-1032, PT L757-758), its coins serving from the next turn."""
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    while game.age < 2:
        close(game)
    produce(game, 0, ore=3)
    game.pile.clear()
    pile(game, "lumber_yard")
    hand(game, 0, "baths", *[CARDS[c].id for c in game.hands[0][1:]])
    hand(game, 1, "vineyard", *[CARDS[c].id for c in game.hands[1][1:]])
    before = game.cities[1].coins
    close(game, {0: "wonder:baths:0:0", 1: "build:vineyard:0:0"})
    assert game.cities[1].coins == before  # nobody had a brown card at the reveal
    events = game.apply(0, "halikarnassos:lumber_yard")
    assert game.cities[1].coins == before + 1 and "lumber_yard" in game.cities[0].names
    assert CoinsGained(seat=1, coins=1, source="vineyard") in events


def test_a_vineyard_of_an_earlier_turn_does_not_count_a_later_card() -> None:
    """RO L1030-1032: the coins are counted once, when the Vineyard is built; only the
    neighbours' cards of that same turn join them."""
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    while game.age < 2:
        close(game)
    put(game, 1, "vineyard")
    produce(game, 0, ore=3)
    game.pile.clear()
    pile(game, "lumber_yard")
    hand(game, 0, "baths", *[CARDS[c].id for c in game.hands[0][1:]])
    hand(game, 1, "bazar", *[CARDS[c].id for c in game.hands[1][1:]])
    close(game, {0: "wonder:baths:0:0", 1: "build:bazar:0:0"})
    before = game.cities[1].coins
    game.apply(0, "halikarnassos:lumber_yard")  # brown: Bazar counts grey, Vineyard is old
    assert game.cities[1].coins == before


def test_a_card_built_from_the_pile_in_an_earlier_age_makes_a_chain() -> None:
    """RO L290-292, PT L214: the source built in an earlier age, however it was built."""
    game = table("halikarnassos", "gizah", "rhodos")
    stages(game, 0, 1)
    produce(game, 0, ore=3)
    pile(game, "scriptorium")
    hand(game, 0, "altar", "theater", "baths", "lumber_yard", "loom", "press", "stockade")
    close(game, {0: "wonder:altar:0:0"})
    game.apply(0, "halikarnassos:scriptorium")
    while game.age < 2:
        close(game)
    coins(game, 0, 0)
    hand(game, 0, "library")
    assert "build:library:0:0" in legal(game, 0)


def test_babylon_b_own_seventh_card_does_not_join_its_own_vineyard() -> None:
    """Ruling 1: the rulebooks add the neighbours' cards of the same turn (RO L1030-1032,
    PT L757-758); Babylon's Vineyard, its sixth card, was counted when built."""
    game = table("babylon", "gizah", "rhodos", sides="B")
    stages(game, 0, 2)
    while game.age < 2:
        if game.phase == "seventh":
            game.apply(0, legal(game, 0)[-1])
        else:
            close(game)
    _to_turn_six(game)
    hand(game, 0, "vineyard", "lumber_yard")
    before = game.cities[0].coins
    close(game, {0: "build:vineyard:0:0"})
    assert game.phase == "seventh" and game.cities[0].coins == before
    game.apply(0, "build:lumber_yard:0:0")
    assert "lumber_yard" in game.cities[0].names and game.cities[0].coins == before
