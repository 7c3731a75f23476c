"""The yellow cards of every age, the guilds, and the other colours (RO L960-1148,
PT L730-800)."""

from __future__ import annotations

import pytest

from app.classic.cards import CARDS
from app.classic.scenario import card_index, coins, hand, put, stages, table

from .helpers import close, sheet


def _build(game, seat: int, card: str, others=None) -> int:  # type: ignore[no-untyped-def]
    """Coins ``seat`` gains by building ``card`` for nothing (others discard)."""
    hand(game, seat, card, *[CARDS[c].id for c in game.hands[seat][1:]])
    game.cities[seat].free_build, game.cities[seat].free_used = True, False
    game.legal_cache.clear()
    before = game.cities[seat].coins
    row = CARDS[card_index(card)]
    choices = {seat: f"olympia:{card}" if row.coins or any(row.cost) else f"build:{card}:0:0"}
    choices.update(others or {})
    close(game, choices)
    game.cities[seat].free_build = False
    return game.cities[seat].coins - before


def test_tavern_gives_five_coins() -> None:
    """RO L877 card list, RO L988-990: coins taken once from the bank when played."""
    game = table("gizah", "rhodos", "olympia", "babylon")
    assert _build(game, 0, "tavern") == 5


def test_vineyard_counts_brown_cards_here_and_next_door() -> None:
    """RO L1026-1028, PT L756: 1 coin per brown card in the city and both neighbours."""
    game = table("gizah", "rhodos", "olympia", "babylon")
    put(game, 0, "lumber_yard")
    put(game, 1, "stone_pit", "clay_pool")
    put(game, 3, "ore_vein")
    put(game, 2, "tree_farm")  # not a neighbour of seat 0 in 4 players
    while game.age < 2:
        close(game)
    assert _build(game, 0, "vineyard") == 4


def test_vineyard_counts_what_a_neighbour_builds_in_the_same_turn() -> None:
    """RO L1030-1032, PT L757-758: brown cards a neighbour builds that turn count."""
    game = table("gizah", "rhodos", "olympia")
    while game.age < 2:
        close(game)
    hand(game, 1, "sawmill", *[CARDS[c].id for c in game.hands[1][1:]])
    coins(game, 1, 1)
    assert _build(game, 0, "vineyard", {1: "build:sawmill:0:0"}) == 1


def test_vineyard_does_not_count_board_resources() -> None:
    """RO L1147-1148, PT L798: resources printed on a board are not cards."""
    game = table("gizah", "rhodos", "olympia")
    while game.age < 2:
        close(game)
    assert _build(game, 0, "vineyard") == 0


def test_bazar_counts_grey_cards_twice_including_same_turn_builds() -> None:
    """RO L1045-1049, PT L759-761: 2 coins per grey card here and next door, a neighbour's
    grey card of the same turn included."""
    game = table("gizah", "rhodos", "olympia", "babylon")
    put(game, 0, "loom")
    put(game, 3, "press")
    while game.age < 2:
        close(game)
    hand(game, 1, "glassworks", *[CARDS[c].id for c in game.hands[1][1:]])
    assert _build(game, 0, "bazar", {1: "build:glassworks:0:0"}) == 6


def test_forum_gives_its_owner_a_good_of_choice() -> None:
    """RO L1051-1053, PT L764-765: one manufactured good of choice each turn."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "forum")
    hand(game, 0, "scriptorium")
    coins(game, 0, 0)
    assert str(game.legal_actions(0)[0]) == "build:scriptorium:0:0"


def test_haven_pays_per_own_brown_card_and_scores_the_final_count() -> None:
    """RO L1070-1072, PT L771-772: coins when played, points at the end, own city only."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "lumber_yard", "clay_pool")
    put(game, 1, "stone_pit")
    while game.age < 3:
        close(game)
    assert _build(game, 0, "haven") == 2
    put(game, 0, "ore_vein")
    assert sheet(game, 0).commerce == 3


def test_lighthouse_counts_yellow_cards_itself_included() -> None:
    """PT L775-776 ("present in the city when it is played"; ruling in
    docs/classic-rules.md against RO L1082-1083): coins and points per yellow card."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "tavern", "marketplace")
    while game.age < 3:
        close(game)
    assert _build(game, 0, "lighthouse") == 3
    assert sheet(game, 0).commerce == 3


def test_chamber_of_commerce_pays_and_scores_two_per_grey_card() -> None:
    """RO L1076-1079, PT L773-774; RO L492-494 and PT L393-395: two grey cards, 4 points."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "loom", "press")
    put(game, 1, "glassworks")
    while game.age < 3:
        close(game)
    assert _build(game, 0, "chamber_of_commerce") == 4
    assert sheet(game, 0).commerce == 4


def test_arena_pays_per_stage_now_and_scores_the_stages_at_the_end() -> None:
    """RO L1063-1068, PT L768-770: 3 coins a stage built when played; 1 point a stage at
    the end."""
    game = table("gizah", "rhodos", "olympia")
    stages(game, 0, 2)
    while game.age < 3:
        close(game)
    assert _build(game, 0, "arena") == 6
    stages(game, 0, 1)
    assert sheet(game, 0).commerce == 3


def test_caravansery_gives_no_coins_and_no_points() -> None:
    """RO L1035-1041: a raw material of choice, nothing else."""
    game = table("gizah", "rhodos", "olympia")
    while game.age < 2:
        close(game)
    assert _build(game, 0, "caravansery") == 0 and sheet(game, 0).commerce == 0


# (guild, cards put in seat 0 / left (1) / right (2) / the seat across (3), expected points)
GUILD_CASES = {
    "workers_guild": ({0: ["lumber_yard"], 1: ["stone_pit", "clay_pool"], 2: ["ore_vein"],
                       3: ["tree_farm"]}, 3, "RO L1112-1113, PT L786"),
    "craftsmens_guild": ({0: ["loom"], 1: ["press"], 2: ["glassworks"], 3: ["loom"]}, 4,
                         "RO L1114-1115, PT L787"),
    "traders_guild": ({0: ["tavern"], 1: ["marketplace"], 2: ["forum", "vineyard"],
                       3: ["tavern"]}, 3, "RO L1116-1117, PT L788"),
    "philosophers_guild": ({0: ["workshop"], 1: ["apothecary"], 2: ["school"],
                            3: ["library"]}, 2, "RO L1118-1119, PT L789"),
    "spies_guild": ({0: ["stockade"], 1: ["walls", "barracks"], 2: [], 3: ["arsenal"]}, 2,
                    "RO L1105-1107, PT L784"),
    "magistrates_guild": ({0: ["altar"], 1: ["baths"], 2: ["palace", "theater"],
                           3: ["pawnshop"]}, 3, "RO L1110-1111, PT L785"),
    "shipowners_guild": ({0: ["lumber_yard", "loom"], 1: ["press"], 2: [], 3: []}, 3,
                         "RO L1130-1134, PT L793-794"),
    "builders_guild": ({}, 1 + 2 + 3, "RO L1126-1128, PT L791-792"),
}


@pytest.mark.parametrize("guild", list(GUILD_CASES))
def test_each_counting_guild(guild: str) -> None:
    """Arrows on both sides count the neighbours only (RO L1100-1104, PT L782-783)."""
    cities, expected, _lines = GUILD_CASES[guild]
    game = table("gizah", "rhodos", "olympia", "babylon")  # 0's neighbours: 1 and 3
    cities = {0: cities.get(0, []), 1: cities.get(1, []), 3: cities.get(2, []),
              2: cities.get(3, [])}
    for seat, ids in cities.items():
        put(game, seat, *ids)
    if guild == "builders_guild":
        stages(game, 0, 1)
        stages(game, 1, 2)
        stages(game, 3, 3)
        stages(game, 2, 1)  # across the table: not counted
    put(game, 0, guild)
    assert sheet(game, 0).guilds == expected


def test_strategists_guild_counts_the_neighbours_defeat_tokens() -> None:
    """RO L1136-1137, PT L795: a point per defeat token of the neighbours."""
    game = table("gizah", "rhodos", "olympia", "babylon")
    put(game, 0, "strategists_guild")
    game.cities[1].tokens = [-1, -1, 3]
    game.cities[3].tokens = [-1, 5]
    game.cities[2].tokens = [-1]
    game.cities[0].tokens = [-1]
    assert sheet(game, 0).guilds == 3


def test_scientists_guild_adds_a_symbol_chosen_at_the_end() -> None:
    """RO L1140-1145, PT L796-797: a science symbol of choice, chosen at the end."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "apothecary", "dispensary", "workshop", "scientists_guild")
    # 2 compasses and a gear: a tablet (4 + 1 + 1 + 7 = 13) beats a third compass (9 + 1)
    assert sheet(game, 0).science == 13 and sheet(game, 0).wildcards == ("tablet",)


def test_a_guild_is_built_like_any_card() -> None:
    """RO L127-134: guilds are Age III cards, built by paying their cost."""
    game = table("gizah", "rhodos", "olympia")
    while game.age < 3:
        close(game)
    hand(game, 0, "craftsmens_guild")
    put(game, 0, "quarry", "foundry")
    assert str(game.legal_actions(0)[0]) == "build:craftsmens_guild:0:0"


def test_red_cards_add_shields_and_blue_cards_points() -> None:
    """RO L980 (a shield each), RO L975 (points as printed)."""
    game = table("gizah", "rhodos", "olympia")
    put(game, 0, "stockade", "walls", "fortifications", "altar", "palace")
    assert game.cities[0].shields == 6 and sheet(game, 0).civilian == 10

