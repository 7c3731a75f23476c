"""The helpers that set positions up by hand for the rule tests."""

from __future__ import annotations

from app.classic.cards import CARDS
from app.classic.scenario import board, card_index, table


def test_board_is_replaced_for_a_scenario() -> None:
    game = table("gizah", "rhodos", "olympia")
    board(game, 0, "ephesos", "B")
    assert len(game.cities[0].stages) == 3


def test_card_index_reads_rows_of_both_ages() -> None:
    assert CARDS[card_index("loom", 2)].age == 2 and CARDS[card_index("loom", 1)].age == 1
