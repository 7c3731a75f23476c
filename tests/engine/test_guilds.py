"""The seven guilds, built through real actions in Age III positions.

Every position is a first-game scenario game moved straight to Age III with
``scenario.start_age`` (the engine's own ``GameState.lay_out_age``): that lays out the real
Age III deck exactly as the end of Age II would, without replaying two ages of random moves
whose cities we could not control. The structure is then cut down to the few cards the test
plays (``set_structure``), so that taking the last of them ends the game and the guild's points
can be read from the real outcome.

Rules (rules.md, "Guilds"): at build, 1 coin per card of the colour in the city with the most of
them (either city); at the end, 1 point per card in the city with the most then (chosen again).
Builders: 2 points per wonder; Moneylenders: 1 point per 3 coins of the richer city; Shipowners:
brown and grey counted together in one city.
"""

from __future__ import annotations

import pytest

from app.engine import Action, BuildCard, BuildWonder, DiscardCard, Game
from app.engine.events import CoinsGained
from app.engine.scenario import (
    mark_wonder_built,
    new_game,
    place_cards,
    player,
    set_coins,
    set_structure,
)
from app.engine.scoring import ScoreSheet

pytestmark = pytest.mark.compiled

PRODUCTION_0 = ["sawmill", "brickyard", "shelf_quarry", "glassblower", "drying_room"]
"""Seat 0 makes wood 2, clay 2, stone 2, glass, papyrus: every guild's cost but Shipowners'."""
PRODUCTION_1 = ["lumber_yard", "logging_camp", "clay_pool", "clay_pit", "quarry", "stone_pit",
                "glassworks", "press"]
"""The same for seat 1, with other cards."""


def age3_game(seed: int = 3) -> Game:
    """A first-game scenario, seat 0 to play, in Age III (see the module docstring)."""
    game = new_game(seed, first_player=0, age=3)
    assert game.state.age == 3
    assert game.to_act == 0
    return game


def play(game: Game, moves: list[tuple[int, Action]]) -> None:
    """Apply each (seat, action) as that seat, checking it is that seat's turn."""
    for seat, action in moves:
        game.apply(action, seat=seat)


def final_scores(game: Game) -> tuple[ScoreSheet, ScoreSheet]:
    assert game.is_over
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.victory == "civilian"
    return outcome.scores


# --------------------------------------------------------------- colour guilds (coins + points)

# guild -> (two cards of the colour, three other cards of it, two buildable Age III cards of it)
COLOUR_GUILDS = {
    "merchants_guild": (["tavern", "stone_reserve"], ["clay_reserve", "wood_reserve", "forum"],
                        ["port", "armory"]),
    "magistrates_guild": (["theater", "altar"], ["baths", "statue", "temple"],
                          ["obelisk", "senate"]),
    "scientists_guild": (["workshop", "apothecary"], ["scriptorium", "pharmacist", "school"],
                         ["study", "university"]),
    "tacticians_guild": (["guard_tower", "stable"], ["garrison", "palisade", "walls"],
                         ["fortifications", "circus"]),
}
FILLERS = ["palace", "town_hall"]


@pytest.mark.parametrize("guild", sorted(COLOUR_GUILDS))
def test_colour_guild_coins_from_opponent_city_points_from_own_city_at_end(guild: str) -> None:
    few, many, extra = COLOUR_GUILDS[guild]
    game = age3_game()
    place_cards(game, 0, PRODUCTION_0 + few)  # seat 0: 2 cards of the colour
    place_cards(game, 1, many)                # seat 1: 3 cards of the colour: the most
    set_structure(game, [guild, FILLERS[0], extra[0], FILLERS[1], extra[1]])
    player(game, 0).coins = 20
    before = player(game, 0).coins

    events = game.apply(BuildCard(guild), seat=0)

    # Price 0 (seat 0 makes every resource); 1 coin per card in seat 1's city, the richer one.
    assert player(game, 0).coins == before + 3
    assert CoinsGained(seat=0, coins=3) in events

    # Seat 0 then builds two more cards of the colour: 4 against 3 at the end.
    play(game, [(1, DiscardCard(FILLERS[0])), (0, BuildCard(extra[0])),
                (1, DiscardCard(FILLERS[1])), (0, BuildCard(extra[1]))])
    mine, theirs = final_scores(game)
    assert mine.purple == 4, "points count the city with the most at the END (seat 0 now)"
    assert theirs.purple == 0


@pytest.mark.parametrize("guild", sorted(COLOUR_GUILDS))
def test_colour_guild_coins_from_own_city_points_from_opponent_city_at_end(guild: str) -> None:
    few, many, extra = COLOUR_GUILDS[guild]
    game = age3_game()
    place_cards(game, 0, PRODUCTION_0 + many)  # seat 0: 3 cards of the colour: the most
    place_cards(game, 1, PRODUCTION_1 + few)  # seat 1: 2 cards of the colour
    set_structure(game, [guild, extra[0], FILLERS[0], extra[1]])
    set_coins(game, {0: 20, 1: 20})

    game.apply(BuildCard(guild), seat=0)
    assert player(game, 0).coins == 23

    # Seat 1 builds two more of the colour: 4 against seat 0's 3 at the end.
    play(game, [(1, BuildCard(extra[0])), (0, DiscardCard(FILLERS[0])),
                (1, BuildCard(extra[1]))])
    mine, theirs = final_scores(game)
    assert mine.purple == 4, "points count the city with the most at the end (seat 1 now)"
    assert theirs.purple == 0


def test_tacticians_guild_counts_red_cards_not_shields() -> None:
    # Walls (2 shields) is one red card: the guild counts cards, not shields.
    game = age3_game()
    place_cards(game, 0, PRODUCTION_0)
    place_cards(game, 1, ["walls", "archery_range"])  # 2 red cards, 4 shields
    set_structure(game, ["tacticians_guild", "palace"])
    before = player(game, 0).coins
    game.apply(BuildCard("tacticians_guild"), seat=0)
    assert player(game, 0).coins == before + 2
    game.apply(DiscardCard("palace"), seat=1)
    assert final_scores(game)[0].purple == 2


def test_colour_guild_with_no_card_of_its_colour_anywhere_gives_nothing() -> None:
    game = age3_game()
    place_cards(game, 0, PRODUCTION_0)
    set_structure(game, ["scientists_guild", "palace"])
    before = player(game, 0).coins
    game.apply(BuildCard("scientists_guild"), seat=0)
    assert player(game, 0).coins == before
    game.apply(DiscardCard("palace"), seat=1)
    assert final_scores(game)[0].purple == 0


# ----------------------------------------------------------------------------- Shipowners

def test_shipowners_counts_brown_and_grey_together_in_one_city() -> None:
    game = age3_game()
    # Seat 0: 3 brown + 1 grey = 4. Seat 1: 6 brown + 0 grey = 6.
    # One city for both colours: max(4, 6) = 6 (not the most brown 6 + the most grey 1 = 7).
    place_cards(game, 0, ["sawmill", "brickyard", "shelf_quarry", "glassblower"])
    place_cards(game, 1, ["lumber_yard", "logging_camp", "clay_pool", "clay_pit", "quarry",
                          "stone_pit"])
    set_structure(game, ["shipowners_guild", "palace", "obelisk", "town_hall"])
    player(game, 0).coins = 20

    game.apply(BuildCard("shipowners_guild"), seat=0)
    # Seat 0 buys its papyrus for 2 (seat 1 makes none) and takes 6 coins.
    assert player(game, 0).coins == 20 - 2 + 6


def test_shipowners_points_recount_after_a_brown_card_is_destroyed() -> None:
    game = age3_game()
    place_cards(game, 0, ["sawmill", "brickyard", "shelf_quarry", "glassblower"])  # 4
    place_cards(game, 1, ["lumber_yard", "logging_camp", "clay_pool", "clay_pit", "quarry",
                          "stone_pit"])                                          # 6
    set_structure(game, ["shipowners_guild", "palace", "obelisk", "town_hall"])
    player(game, 0).coins = 20
    game.apply(BuildCard("shipowners_guild"), seat=0)
    game.apply(DiscardCard("palace"), seat=1)
    # The Statue of Zeus (seat 0's in the first game) destroys one of seat 1's brown cards.
    game.apply(BuildWonder("the_statue_of_zeus", "obelisk"), seat=0)
    game.apply("destroy:lumber_yard", seat=0)
    game.apply(DiscardCard("town_hall"), seat=1)
    mine, theirs = final_scores(game)
    assert mine.purple == 5, "at the end seat 1 has 5 brown+grey, seat 0 has 4"
    assert theirs.purple == 0


def test_shipowners_counts_own_city_when_it_has_the_most() -> None:
    game = age3_game()
    place_cards(game, 0, ["sawmill", "brickyard", "shelf_quarry", "glassblower", "drying_room",
                          "glassworks", "press"])                               # 3 + 4 = 7
    place_cards(game, 1, ["lumber_yard", "logging_camp", "clay_pool", "quarry", "stone_pit"])  # 5
    set_structure(game, ["shipowners_guild", "palace"])
    before = player(game, 0).coins
    game.apply(BuildCard("shipowners_guild"), seat=0)
    assert player(game, 0).coins == before + 7
    game.apply(DiscardCard("palace"), seat=1)
    assert final_scores(game)[0].purple == 7


# ------------------------------------------------------------------------------- Builders

def test_builders_guild_gives_no_coins_and_two_points_per_wonder_of_the_city_with_most() -> None:
    game = age3_game()
    place_cards(game, 0, PRODUCTION_0)
    mark_wonder_built(game, 0, "the_pyramids", "lumber_yard")
    mark_wonder_built(game, 1, "the_colossus", "logging_camp")
    mark_wonder_built(game, 1, "circus_maximus", "clay_pool")
    set_structure(game, ["builders_guild", "palace", "obelisk", "town_hall", "senate"])
    player(game, 0).coins = 20

    events = game.apply(BuildCard("builders_guild"), seat=0)
    assert player(game, 0).coins == 20, "the Builders Guild costs nothing here and gives no coins"
    assert not [e for e in events if isinstance(e, CoinsGained)]

    # Seat 0 builds two more wonders (3 against 2 at the end). Statue of Zeus: seat 1 has no
    # brown card, so there is nothing to destroy.
    play(game, [(1, DiscardCard("palace")),
                (0, BuildWonder("the_great_lighthouse", "obelisk")),
                (1, DiscardCard("town_hall")),
                (0, BuildWonder("the_statue_of_zeus", "senate"))])
    mine, theirs = final_scores(game)
    assert mine.purple == 2 * 3
    assert theirs.purple == 0


def test_builders_guild_counts_the_opponents_wonders_when_they_have_more() -> None:
    game = age3_game()
    place_cards(game, 0, PRODUCTION_0)
    mark_wonder_built(game, 1, "the_colossus", "lumber_yard")
    mark_wonder_built(game, 1, "circus_maximus", "logging_camp")
    mark_wonder_built(game, 1, "piraeus", "clay_pool")
    set_structure(game, ["builders_guild", "palace"])
    play(game, [(0, BuildCard("builders_guild")), (1, DiscardCard("palace"))])
    assert final_scores(game)[0].purple == 6


# --------------------------------------------------------------------------- Moneylenders

@pytest.mark.parametrize(
    ("coins_0", "coins_1", "points"),
    [
        (5, 16, 6),    # end: seat 0 has 7, seat 1 18 -> 18 // 3
        (20, 4, 7),    # end: seat 0 has 22, seat 1 6 -> 22 // 3
        (0, 0, 0),     # end: 2 and 2
    ],
)
def test_moneylenders_guild_one_point_per_three_coins_of_the_richer_city(
        coins_0: int, coins_1: int, points: int) -> None:
    game = age3_game()
    place_cards(game, 0, PRODUCTION_0)
    set_structure(game, ["moneylenders_guild", "palace", "town_hall"])
    set_coins(game, {0: coins_0, 1: coins_1})

    game.apply(BuildCard("moneylenders_guild"), seat=0)
    assert player(game, 0).coins == coins_0, "no coins at build, and it cost nothing"

    # Both discard (2 coins each, no yellow card): the richer city is chosen at the end.
    play(game, [(1, DiscardCard("palace")), (0, DiscardCard("town_hall"))])
    assert (player(game, 0).coins, player(game, 1).coins) == (coins_0 + 2, coins_1 + 2)
    mine, theirs = final_scores(game)
    assert mine.purple == points
    assert theirs.purple == 0
