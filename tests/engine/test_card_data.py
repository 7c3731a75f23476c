"""The project's card database (app/engine/data/duel.toml, compiled by app.engine.cards)
against the shared reference tables (../shared/reference/*.csv), field by field.

The CSV effect terms are parsed independently of the engine (format in
reference/README.md) into the :class:`Effects` record they should compile to, and the two
records are compared whole: a term missing, extra or different on either side fails.
"""

from __future__ import annotations

import csv
import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from app.engine.cards import (
    CARD_BY_ID,
    CARDS,
    CHAIN_SYMBOLS,
    NO_SYMBOL,
    RESOURCES,
    SCIENCE_SYMBOLS,
    TOKEN_BY_ID,
    TOKENS,
    WONDER_BY_ID,
    WONDERS,
    Color,
    Effects,
    Kind,
    PerItem,
)

KINDS = {
    "brown": Kind.BROWN, "grey": Kind.GREY, "blue": Kind.BLUE, "green": Kind.GREEN,
    "yellow": Kind.YELLOW, "red": Kind.RED, "purple": Kind.PURPLE,
    "brown+grey": Kind.BROWN_AND_GREY, "wonder": Kind.WONDER,
    "coin_set_of_3": Kind.COIN_SET_OF_3,
}


# ---------------------------------------------------------------- CSV parsing

def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def parse_resources(text: str) -> tuple[int, ...]:
    """``clay:1;stone:2`` -> amounts indexed like RESOURCES; checks the documented order."""
    amounts = [0] * len(RESOURCES)
    previous = -1
    for part in filter(None, text.split(";")):
        name, count = part.split(":")
        r = RESOURCES.index(name)
        assert r > previous, f"resources out of order in {text!r}"
        previous = r
        amounts[r] = int(count)
    return tuple(amounts)


def parse_effects(text: str) -> Effects:
    """A CSV effect column -> the Effects record it describes."""
    fields: dict[str, Any] = {}
    produce = [0] * len(RESOURCES)
    for term in filter(None, text.split(";")):
        name, *args = term.split(":")
        match name, args:
            case "produce", [resource, n]:
                produce[RESOURCES.index(resource)] += int(n)
                fields["produce"] = tuple(produce)
            case "produce_choice", [options]:
                fields["produce_one_of"] = tuple(
                    sorted(RESOURCES.index(r) for r in options.split("|"))
                )
            case "trade", [options]:
                fields["trade_price_one"] = tuple(
                    sorted(RESOURCES.index(r) for r in options.split("|"))
                )
            case "shields", [n]:
                fields["shields"] = int(n)
            case "points", [n]:
                fields["points"] = int(n)
            case "coins", [n]:
                fields["coins"] = int(n)
            case "science", [symbol]:
                fields["science"] = SCIENCE_SYMBOLS.index(symbol)
            case "coins_per", [kind, n]:
                fields["coins_per_own"] = PerItem(KINDS[kind], int(n))
            case "coins_per_most", [kind, n]:
                fields["coins_per_most"] = PerItem(KINDS[kind], int(n))
            case "points_per_most", [kind, n]:
                fields["points_per_most"] = PerItem(KINDS[kind], int(n))
            case "extra_turn", []:
                fields["play_again"] = True
            case "opponent_loses_coins", [n]:
                fields["opponent_loses_coins"] = int(n)
            case "destroy_opponent_card", [color]:
                fields["destroy_opponent_card"] = Color[color.upper()]
            case "build_from_discard", []:
                fields["build_from_discard"] = True
            case "progress_from_box", [n]:
                fields["progress_from_box"] = int(n)
            case "resource_discount", ["wonder", n]:
                fields["wonder_resource_discount"] = int(n)
            case "resource_discount", ["blue", n]:
                fields["blue_resource_discount"] = int(n)
            case "receive_opponent_trade_coins", []:
                fields["receive_opponent_trade_coins"] = True
            case "points_per", ["progress_token", n]:
                fields["points_per_progress_token"] = int(n)
            case "extra_shields_per_red_card", [n]:
                fields["extra_shields_per_red_card"] = int(n)
            case "wonders_extra_turn", []:
                fields["wonders_play_again"] = True
            case "coins_per_chain_build", [n]:
                fields["coins_per_chain_build"] = int(n)
            case _:
                pytest.fail(f"unknown effect term {term!r} in {text!r}")
    return Effects(**fields)


def normalized(effects: Effects) -> Effects:
    """Order of "one of" / trade lists carries no meaning: compare them sorted."""
    return dataclasses.replace(
        effects,
        produce_one_of=tuple(sorted(effects.produce_one_of)),
        trade_price_one=tuple(sorted(effects.trade_price_one)),
    )


def effects_diff(actual: Effects, expected: Effects) -> str:
    """Only the fields that differ, for readable failures."""
    return ", ".join(
        f"{f.name}: engine {getattr(actual, f.name)!r}, reference {getattr(expected, f.name)!r}"
        for f in dataclasses.fields(Effects) if f.init
        and getattr(actual, f.name) != getattr(expected, f.name)
    )


def symbol_name(index: int) -> str:
    return "" if index == NO_SYMBOL else CHAIN_SYMBOLS[index]


@pytest.fixture(scope="module")
def card_rows(reference_dir: Path) -> list[dict[str, str]]:
    return read_csv(reference_dir / "cards.csv")


@pytest.fixture(scope="module")
def wonder_rows(reference_dir: Path) -> list[dict[str, str]]:
    return read_csv(reference_dir / "wonders.csv")


@pytest.fixture(scope="module")
def token_rows(reference_dir: Path) -> list[dict[str, str]]:
    return read_csv(reference_dir / "progress_tokens.csv")


# ---------------------------------------------------------------- the parser itself

def test_effect_parser_reads_the_documented_terms() -> None:
    # A sanity check of this file's parser, so that a parser bug cannot hide a data bug.
    assert parse_effects("produce:wood:2") == Effects(produce=(2, 0, 0, 0, 0))
    assert parse_effects("coins_per:grey:3;points:3") == Effects(
        coins_per_own=PerItem(Kind.GREY, 3), points=3
    )
    assert parse_effects("coins:3;opponent_loses_coins:3;extra_turn;points:3") == Effects(
        coins=3, opponent_loses_coins=3, play_again=True, points=3
    )
    assert parse_effects("") == Effects()
    assert parse_resources("clay:1;stone:2;papyrus:1") == (0, 1, 2, 0, 1)


# ---------------------------------------------------------------- cards

def test_card_ids_match_the_reference(card_rows: list[dict[str, str]]) -> None:
    ids = [row["id"] for row in card_rows]
    assert len(ids) == len(set(ids)) == 73
    assert sorted(ids) == sorted(card.id for card in CARDS)


def test_every_card_matches_its_reference_row(card_rows: list[dict[str, str]]) -> None:
    mismatches = []
    for row in card_rows:
        card = CARD_BY_ID[row["id"]]
        expected = {
            "name": row["name"],
            "age": 3 if row["age"] == "guild" else int(row["age"]),
            "is_guild": row["age"] == "guild",
            "color": Color[row["color"].upper()],
            "cost_coins": int(row["cost_coins"]),
            "cost": parse_resources(row["cost_resources"]),
            "chain_from": row["chain_from"],
            "chain_to": row["chain_provides"],
            "effects": parse_effects(row["effect"]),
            "points": int(row["points"]),
        }
        actual = {
            "name": card.name,
            "age": card.age,
            "is_guild": card.is_guild,
            "color": card.color,
            "cost_coins": card.cost_coins,
            "cost": card.cost,
            "chain_from": symbol_name(card.chain_from),
            "chain_to": symbol_name(card.chain_to),
            "effects": normalized(card.effects),
            "points": card.effects.points,
        }
        for key, value in expected.items():
            if key == "effects" and actual[key] != value:
                mismatches.append(f"{card.id}.effects: {effects_diff(actual[key], value)}")
            elif actual[key] != value:
                mismatches.append(f"{card.id}.{key}: engine {actual[key]!r}, reference {value!r}")
    assert not mismatches, "\n".join(mismatches)


def test_points_column_repeats_the_points_term(card_rows: list[dict[str, str]]) -> None:
    # README: "points" repeats the points:N term; count it once. The engine must not add it twice.
    for row in card_rows:
        assert parse_effects(row["effect"]).points == int(row["points"]), row["id"]
        assert CARD_BY_ID[row["id"]].effects.points == int(row["points"]), row["id"]


# ---------------------------------------------------------------- wonders

def test_wonder_ids_match_the_reference(wonder_rows: list[dict[str, str]]) -> None:
    ids = [row["id"] for row in wonder_rows]
    assert len(ids) == len(set(ids)) == 12
    assert sorted(ids) == sorted(wonder.id for wonder in WONDERS)


def test_every_wonder_matches_its_reference_row(wonder_rows: list[dict[str, str]]) -> None:
    mismatches = []
    for row in wonder_rows:
        wonder = WONDER_BY_ID[row["id"]]
        seat = row["first_game_seat"]
        expected = {
            "name": row["name"],
            "cost_coins": int(row["cost_coins"]),
            "cost": parse_resources(row["cost_resources"]),
            "effects": parse_effects(row["effect"]),
            "points": int(row["points"]),
            "first_game_player": int(seat) if seat else None,
        }
        actual = {
            "name": wonder.name,
            "cost_coins": wonder.cost_coins,
            "cost": wonder.cost,
            "effects": normalized(wonder.effects),
            "points": wonder.effects.points,
            "first_game_player": wonder.first_game_player,
        }
        for key, value in expected.items():
            if key == "effects" and actual[key] != value:
                mismatches.append(f"{wonder.id}.effects: {effects_diff(actual[key], value)}")
            elif actual[key] != value:
                mismatches.append(
                    f"{wonder.id}.{key}: engine {actual[key]!r}, reference {value!r}"
                )
    assert not mismatches, "\n".join(mismatches)


# ---------------------------------------------------------------- progress tokens

def test_token_ids_match_the_reference(token_rows: list[dict[str, str]]) -> None:
    ids = [row["id"] for row in token_rows]
    assert len(ids) == len(set(ids)) == 10
    assert sorted(ids) == sorted(token.id for token in TOKENS)


def test_every_token_matches_its_reference_row(token_rows: list[dict[str, str]]) -> None:
    mismatches = []
    for row in token_rows:
        token = TOKEN_BY_ID[row["id"]]
        if token.name != row["name"]:
            mismatches.append(f"{token.id}.name: {token.name!r} vs {row['name']!r}")
        expected = parse_effects(row["effect"])
        if normalized(token.effects) != expected:
            mismatches.append(
                f"{token.id}.effects: {effects_diff(normalized(token.effects), expected)}"
            )
        if token.effects.points != int(row["points"]):
            mismatches.append(f"{token.id}.points: {token.effects.points} vs {row['points']}")
    assert not mismatches, "\n".join(mismatches)


# ---------------------------------------------------------------- fixture-free checks

def test_card_counts_per_age() -> None:
    counts = Counter("guild" if c.is_guild else c.age for c in CARDS)
    assert counts == {1: 23, 2: 23, 3: 20, "guild": 7}
    assert all(c.color == Color.PURPLE for c in CARDS if c.is_guild)
    assert not [c.id for c in CARDS if c.color == Color.PURPLE and not c.is_guild]
    assert len(WONDERS) == 12
    assert len(TOKENS) == 10


def test_ids_and_names_are_unique() -> None:
    for table in (CARDS, WONDERS, TOKENS):
        assert len({x.id for x in table}) == len(table)
        assert len({x.name for x in table}) == len(table)
    # The indices used inside the engine are the positions in the tables.
    for table in (CARDS, WONDERS, TOKENS):
        assert [x.index for x in table] == list(range(len(table)))


def test_each_chain_symbol_is_provided_once_and_consumed_once() -> None:
    provided = Counter(c.chain_to for c in CARDS if c.chain_to != NO_SYMBOL)
    consumed = Counter(c.chain_from for c in CARDS if c.chain_from != NO_SYMBOL)
    assert len(CHAIN_SYMBOLS) == 17
    assert set(provided) == set(consumed) == set(range(len(CHAIN_SYMBOLS)))
    assert set(provided.values()) == {1}
    assert set(consumed.values()) == {1}


def test_chains_lead_to_a_later_age() -> None:
    provider = {c.chain_to: c for c in CARDS if c.chain_to != NO_SYMBOL}
    for card in CARDS:
        if card.chain_from != NO_SYMBOL:
            source = provider[card.chain_from]
            assert source.age < card.age, f"{source.id} -> {card.id}"
            assert card.chain_to != card.chain_from


def test_age_three_and_guilds_have_no_brown_or_grey() -> None:
    assert not [c.id for c in CARDS if c.age == 3 and c.color in (Color.BROWN, Color.GREY)]


def test_brown_and_grey_cards_only_produce() -> None:
    # Destroying a card (Statue of Zeus, Circus Maximus) only takes back its production:
    # that is correct only if brown and grey cards do nothing else.
    for card in CARDS:
        if card.color in (Color.BROWN, Color.GREY):
            assert any(card.effects.produce), card.id
            assert dataclasses.replace(card.effects, produce=(0,) * len(RESOURCES)) == Effects(), (
                card.id
            )
            assert card.chain_to == NO_SYMBOL and card.chain_from == NO_SYMBOL, card.id
            raw = card.color == Color.BROWN
            produced = {r for r, n in enumerate(card.effects.produce) if n}
            assert produced <= ({0, 1, 2} if raw else {3, 4}), card.id


def test_only_brown_and_grey_have_fixed_production() -> None:
    # Fixed production raises the opponent's trading price; yellow cards and wonders
    # produce "one of" and must never do so.
    carriers = [c.effects for c in CARDS if c.color not in (Color.BROWN, Color.GREY)]
    carriers += [w.effects for w in WONDERS] + [t.effects for t in TOKENS]
    assert not [e for e in carriers if any(e.produce)]


def test_first_game_wonders() -> None:
    first = {w.id for w in WONDERS if w.first_game_player == 1}
    second = {w.id for w in WONDERS if w.first_game_player == 2}
    assert first == {"the_pyramids", "the_great_lighthouse", "the_temple_of_artemis",
                     "the_statue_of_zeus"}
    assert second == {"circus_maximus", "piraeus", "the_appian_way", "the_colossus"}
