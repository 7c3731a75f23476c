"""The project's data file against the shared reference tables: every card row with every
player count, every stage of both sides of the seven boards (reference/7wonders/README.md)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from app.classic.cards import BOARDS, CARDS, GUILDS, RESOURCES, SYMBOLS, Effects, deck


@pytest.fixture
def tables(reference_dir: Path) -> Path:
    return reference_dir / "7wonders"


def _read(tables: Path, name: str) -> list[dict[str, str]]:
    with (tables / name).open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _cost(coins: int, cost: tuple[int, ...]) -> tuple[str, str]:
    return str(coins), ";".join(f"{RESOURCES[r]}:{n}" for r, n in enumerate(cost) if n)


def _terms(effects: Effects) -> list[str]:
    """The reference table's effect terms for a compiled effect record."""
    terms: list[str] = []
    for resource, units in enumerate(effects.produce):
        if units:
            terms.append(f"produce:{RESOURCES[resource]}:{units}")
    names = lambda mask: "|".join(RESOURCES[r] for r in range(7) if mask >> r & 1)  # noqa: E731
    if effects.either:
        terms.append(f"produce_either:{names(effects.either)}")
    if effects.choice:
        terms.append(f"produce_choice:{names(effects.choice)}")
    terms += [f"trade_discount:{goods}:{side}" for goods, side in effects.discounts]
    for name in ("shields", "coins", "points"):
        if getattr(effects, name):
            terms.append(f"{name}:{getattr(effects, name)}")
    if effects.science >= 0:
        terms.append(f"science:{SYMBOLS[effects.science]}")
    if effects.science_choice:
        terms.append("science_choice")
    for name in ("coins_per", "points_per"):
        counting = getattr(effects, name)
        if counting is not None:
            terms.append(f"{name}:{'+'.join(counting.kinds)}:{counting.each}:{counting.scope}")
    terms += sorted(effects.flags)
    return sorted(terms)


def test_every_card_row_matches_the_reference(tables: Path) -> None:
    rows = _read(tables, "cards.csv")
    assert len(rows) == len(CARDS) == 78
    for row, card in zip(rows, CARDS, strict=True):
        where = f"{row['id']} (age {row['age']})"
        assert card.id == row["id"] and card.name == row["name"], where
        assert (("guild" if card.guild else str(card.age)) == row["age"]), where
        assert card.color == row["color"], where
        assert _cost(card.coins, card.cost) == (row["cost_coins"], row["cost_resources"]), where
        assert "|".join(card.chain_from) == row["chain_from"], where
        assert _terms(card.effects) == sorted(row["effect"].split(";")), where
        assert card.effects.points == int(row["points"]), where
        copies = ";".join(map(str, card.copies))
        assert copies == row["min_players"], where


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_every_player_count_gets_the_reference_copies(players: int, tables: Path) -> None:
    """RO L123-126: the cards marked for more players go back to the box."""
    rows = _read(tables, "cards.csv")
    for age in (1, 2, 3):
        expected = sorted((row["id"]) for row in rows if row["age"] == str(age)
                          for mark in row["min_players"].split(";") if int(mark) <= players)
        assert sorted(CARDS[c].id for c in deck(age, players)) == expected
        guilds = players + 2 if age == 3 else 0
        assert len(deck(age, players)) + guilds == 7 * players
    assert len(GUILDS) == 10


def test_every_stage_of_both_sides_matches_the_reference(tables: Path) -> None:
    rows = _read(tables, "wonders.csv")
    seen = 0
    for board in BOARDS:
        for side, stages in board.sides.items():
            mine = [row for row in rows if row["board"] == board.id and row["side"] == side]
            assert len(mine) == len(stages), (board.id, side)
            for row, stage in zip(mine, stages, strict=True):
                seen += 1
                assert RESOURCES[board.resource] == row["starting_resource"]
                assert board.name == row["name"]
                assert int(row["stage"]) == stage.number
                assert _cost(0, stage.cost) == (row["cost_coins"], row["cost_resources"])
                assert _terms(stage.effects) == sorted(row["effect"].split(";")), row["id"]
    assert seen == len(rows) == 42
