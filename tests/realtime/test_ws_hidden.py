"""Hidden information over the game socket: random games played through the protocol, every
message each seat and a spectator receive scanned for identities they may not know.

What is hidden at each version comes from the engine-level rule (``hidden_ids`` of
tests/factories.py), computed on a replica of the server's game: same seed and options
(read from the server's own replay), fed the moves the sockets were told of. The replica's
final state must hash as the server's does, so it is the server's game.

The default run scans a sample (a draft that offers The Great Library, until its builder's
private draw has been met, and a first game); ``make test-long`` scans 15 games per
database. Every test runs on SQLite and on PostgreSQL (the ``make_app`` fixture)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.engine import CARDS, WONDERS
from tests.factories import (
    AUDIENCES,
    ProtocolClient,
    Scanner,
    Table,
    join_game,
    offering,
    serve,
    server_game,
)

TIMEOUT = 10.0
GAMES_PER_DATABASE = 15
"""Full games per database in the long run: 30 in all, every fifth a first game."""
MAX_LIBRARY_GAMES = 4
"""Sample games played until one had a Great Library draw (nearly always the first)."""


def _scan(client: TestClient, table: Table, number: int) -> int:
    """Play the table's game to its end with every message scanned, latecomers (a seat and
    a spectator) catching up from the start at a random point: the Great Library draws."""
    scanner = Scanner(table)
    chooser = random.Random(number)
    late_join = chooser.randrange(3, 40)
    for played in scanner.play(chooser):
        if played == late_join:
            for audience, seat in AUDIENCES.items():
                with ProtocolClient(client, table.game_id, timeout=TIMEOUT) as latecomer:
                    token = None if seat is None else table.credentials[seat]["token"]
                    welcome = latecomer.join(seat, token, last_version=0)
                    assert len(welcome["missed"]) == late_join
                    scanner.check_catch_up(audience, welcome)
    # At the end, everyone asks for the whole story again.
    scanner.finish(AUDIENCES)
    table.close()
    return scanner.library_draws


def test_no_message_reveals_a_hidden_identity(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        library_draws = games = 0
        while not library_draws and games < MAX_LIBRARY_GAMES:
            games += 1
            first = offering(client, "the_great_library", wonder_selection="draft")
            table = Table.around(client, first, join_game(client, first), timeout=TIMEOUT)
            library_draws += _scan(client, table, games)
        # The Great Library's draw, shown to its builder alone, was put to the test.
        assert library_draws >= 1, f"no Great Library draw in {games} games"
        _scan(client, Table.open(client, timeout=TIMEOUT, wonder_selection="first_game"), 0)


@pytest.mark.long
def test_no_message_of_many_games_reveals_a_hidden_identity(
        make_app: Callable[..., FastAPI]) -> None:
    library_draws = 0
    with serve(make_app()) as client:
        for number in range(GAMES_PER_DATABASE):
            selection = "first_game" if number % 5 == 4 else "draft"
            table = Table.open(client, timeout=TIMEOUT, wonder_selection=selection)
            library_draws += _scan(client, table, number)
    assert library_draws >= 1


def _normalised(error: dict[str, Any], name: str) -> tuple[Any, ...]:
    return error["code"], error.get("detail"), error["message"].replace(name, "<id>")


def test_refusals_do_not_tell_face_down_cards_from_cards_out_of_the_game(
        make_app: Callable[..., FastAPI]) -> None:
    """A seat could probe with actions naming cards and wonders it cannot see: the refusal
    must read the same whether the card lies face down in the structure or was left out at
    setup, and whether a wonder comes later in the draft or never."""
    with serve(make_app()) as client:
        table = Table.open(client, timeout=TIMEOUT, wonder_selection="draft",
                           first_player="creator")
        seat0 = table.seats[0]
        game, _ = server_game(client, table.game_id)
        # Draft, version 0: the second round's wonders and the unused ones.
        state = game.state
        later = [WONDERS[w].id for w in state.draft_rounds[1]]
        never = [WONDERS[w].id for w in state.unused_wonders]
        answers = {}
        for wonder in later + never:
            error = seat0.act(f"pick:{wonder}", 0)
            assert error["type"] == "error", error
            answers[wonder] = _normalised(error, wonder)
        assert len(set(answers.values())) == 1, answers

        # Play the draft out (8 picks, the last of each round automatic) to reach Age I.
        chooser = random.Random(1)
        while table.replica.state.age == 0:
            table.step(chooser)
        game, version = server_game(client, table.game_id)
        state = game.state
        actor = table.seats[game.to_act]  # type: ignore[index]
        face_down = [CARDS[c].id for slot, c in enumerate(state.structure)
                     if c >= 0 and not state.face_up[slot]]
        left_out = [CARDS[c].id for c in state.removed_cards if CARDS[c].age == 1]
        assert face_down and left_out
        answers = {}
        for card in face_down + left_out:
            for verb in ("build", "discard"):
                error = actor.act(f"{verb}:{card}", version)
                assert error["type"] == "error", error
                answers[verb, card] = _normalised(error, card)
        for verb in ("build", "discard"):
            replies = {answer for (v, _), answer in answers.items() if v == verb}
            assert len(replies) == 1, replies
        assert server_game(client, table.game_id)[1] == version
        table.close()
