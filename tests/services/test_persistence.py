"""Nothing is lost across a restart: the database (game, seats, action log) is the truth,
and a new server instance on the same database carries on exactly where the last one was."""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Seat
from app.engine import Game, Options
from tests.factories import (
    Database,
    ProtocolClient,
    create_game,
    game_row,
    game_summary,
    http_views,
    join_game,
    log_rows,
    new_game,
    server_game,
)

DRAFT_ACTIONS = 6
"""Actions of a wonder draft: 1 + 2 picks, then 1 + 2 (the last of each round is automatic)."""


# ---------------------------------------------------------------------- helpers

def _rows(database: Database, game_id: str) -> tuple[Any, list[Any], list[Any]]:
    """The game's rows as they are in the database, read on a connection of our own."""

    async def read() -> tuple[Any, list[Any], list[Any]]:
        game = await game_row(database, game_id)
        seats = await database.read(
            select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat))
        return game, seats, await log_rows(database, game_id)

    return asyncio.run(read())


def _server_state(client: TestClient, game_id: str) -> tuple[str, int]:
    """The state hash and version of the server's own replay of the game."""
    game, version = server_game(client, game_id)
    return game.state_hash(), version



class Clients:
    """Both seats and a spectator on one game, playing seeded random legal actions."""

    def __init__(self, http: TestClient, game_id: str, tokens: list[str],
                 chooser: random.Random, prefix: str) -> None:
        self.seats = [ProtocolClient(http, game_id), ProtocolClient(http, game_id)]
        self.spectator = ProtocolClient(http, game_id)
        self.chooser = chooser
        self.client_ids: list[str] = []
        self.tokens = tokens
        self.prefix = prefix

    @property
    def everyone(self) -> list[ProtocolClient]:
        return [*self.seats, self.spectator]

    def join(self, last_versions: list[int | None]) -> list[dict[str, Any]]:
        welcomes = [client.join(seat, self.tokens[seat], last_versions[seat])
                    for seat, client in enumerate(self.seats)]
        welcomes.append(self.spectator.join(last_version=last_versions[2]))
        assert all(w["type"] == "welcome" for w in welcomes), welcomes
        return welcomes

    def play(self, until: Callable[[int, dict[str, Any]], bool]) -> None:
        while not until(self.spectator.version, self.spectator.view or {}):
            view = self.spectator.view
            assert view is not None and view["to_act"] is not None, "the game is over"
            actor = self.seats[view["to_act"]]
            assert actor.view is not None
            legal = self.chooser.choice(actor.view["legal_actions"])
            client_id = f"{self.prefix}{len(self.client_ids) + 1}"
            # Both forms of an action are accepted: its JSON and its notation.
            action = legal["action"] if self.chooser.random() < 0.5 else legal["notation"]
            ack = actor.act(action, client_id=client_id)
            assert ack["type"] == "ack" and not ack["duplicate"], ack
            self.client_ids.append(client_id)
            for other in self.everyone:
                if other is not actor:
                    other.receive_until("update")
            assert {c.version for c in self.everyone} == {ack["version"]}

    def close(self) -> None:
        for client in self.everyone:
            client.close()


# ---------------------------------------------------------------------- tests

def test_a_restart_loses_nothing_and_the_game_goes_on(
        make_app: Callable[..., FastAPI], database: Database) -> None:
    chooser = random.Random(7)

    # ---- server A: create, join, the draft and a few cards of Age I
    with TestClient(make_app()) as http_a:
        first, second = new_game(http_a, first_player="creator", name="Ann")
        game_id = first["game_id"]
        tokens = [first["token"], second["token"]]
        row, _, _ = _rows(database, game_id)
        assert (row.status, row.version, row.winner, row.victory) == ("active", 0, None, None)

        table = Clients(http_a, game_id, tokens, chooser, "a-")
        table.join([None, None, None])
        table.play(lambda version, view: version >= DRAFT_ACTIONS + 4
                   and view["phase"] == "play")
        assert table.spectator.view is not None and table.spectator.view["age"] == 1
        client_ids_a = table.client_ids
        played_on_a = table.spectator.version
        assert played_on_a >= DRAFT_ACTIONS + 4
        last_views_a = [client.view for client in table.everyone]
        updates_a = [{m["version"]: m["events"] for m in client.received("update")}
                     for client in table.everyone]
        assert all(sorted(u) == list(range(1, played_on_a + 1)) for u in updates_a)
        http_views_a = http_views(http_a, game_id, tokens)
        hash_a, version_a = _server_state(http_a, game_id)
        assert version_a == played_on_a
        table.close()

    row, _, actions = _rows(database, game_id)
    assert (row.status, row.version, row.winner, row.victory) == (
        "active", played_on_a, None, None)
    assert [a.seq for a in actions] == list(range(1, played_on_a + 1))

    # ---- server B, a new instance on the same database
    with TestClient(make_app()) as http_b:
        assert _server_state(http_b, game_id) == (hash_a, version_a)
        assert http_views(http_b, game_id, tokens) == http_views_a
        summary = game_summary(http_b, game_id)
        assert summary["version"] == played_on_a and summary["status"] == "active"
        assert [s["name"] for s in summary["seats"]] == ["Ann", None]

        # The clients come back, each saying what it last saw: seat 0 saw everything,
        # seat 1 lost track after version 4, the spectator saw nothing.
        table = Clients(http_b, game_id, tokens, chooser, "b-")
        seen = [played_on_a, 4, 0]
        welcomes = table.join(seen)
        for welcome, client, last_view, updates, last_seen in zip(
                welcomes, table.everyone, last_views_a, updates_a, seen, strict=True):
            assert welcome["version"] == played_on_a
            assert welcome["view"] == last_view, "the same view as A's last update"
            assert client.view == last_view
            assert welcome["missed"] == [
                {"version": v, "events": updates[v]} for v in range(last_seen + 1,
                                                                      played_on_a + 1)]

        table.play(lambda _version, view: view["phase"] == "over")
        final = table.spectator.version
        outcome = table.spectator.view["outcome"]  # type: ignore[index]
        assert outcome is not None and outcome["victory"] in ("civilian", "military", "science")
        for client in table.seats:
            assert client.view is not None and client.view["outcome"] == outcome
            assert "legal_actions" not in client.view
        summary = game_summary(http_b, game_id)
        assert (summary["status"], summary["version"], summary["winner"],
                summary["victory"]) == ("finished", final, outcome["winner"],
                                        outcome["victory"])
        hash_b, version_b = _server_state(http_b, game_id)
        assert version_b == final
        table.close()

    # ---- the database: the log replays to the server's state; the row tracks the end
    row, seats, actions = _rows(database, game_id)
    assert (row.status, row.version, row.winner, row.victory) == (
        "finished", final, outcome["winner"], outcome["victory"])
    assert [a.seq for a in actions] == list(range(1, final + 1))
    assert [a.client_id for a in actions] == client_ids_a + table.client_ids
    replayed = Game.replay(row.seed, Options.from_json(row.options),
                           [a.notation for a in actions])
    assert replayed.state_hash() == hash_b
    assert replayed.is_over and replayed.outcome().winner == outcome["winner"]  # type: ignore[union-attr]
    # Each row's seat is the seat that acted, and its JSON form says the same as its notation.
    again = Game.new(row.seed, Options.from_json(row.options))
    for action in actions:
        assert again.to_act == action.seat
        again.apply(action.action, seat=action.seat)
        assert str(again.log[-1]) == action.notation
    assert again.state_hash() == hash_b
    assert [s.seat for s in seats] == [0, 1]


def test_a_waiting_game_can_be_joined_after_a_restart(
        make_app: Callable[..., FastAPI], database: Database) -> None:
    with TestClient(make_app()) as http_a:
        created = create_game(http_a, wonder_selection="first_game", first_player="creator")
        game_id = created["game_id"]
        view_a = http_views(http_a, game_id, [created["token"]])
        hash_a = _server_state(http_a, game_id)
    row, _, _ = _rows(database, game_id)
    assert (row.status, row.version) == ("waiting", 0)

    with TestClient(make_app()) as http_b:
        assert _server_state(http_b, game_id) == hash_a, "the same deal: seed and options kept"
        assert http_views(http_b, game_id, [created["token"]]) == view_a
        join_game(http_b, created)
        assert game_summary(http_b, game_id)["status"] == "active"
        with ProtocolClient(http_b, game_id) as seat0:
            assert seat0.join(0, created["token"])["type"] == "welcome"
            assert seat0.view is not None
            ack = seat0.act(seat0.view["legal_actions"][0]["action"])
            assert ack["type"] == "ack" and ack["version"] == 1
    row, _, actions = _rows(database, game_id)
    assert (row.status, row.version, len(actions)) == ("active", 1, 1)


def test_seat_tokens_and_invite_codes_are_stored_only_as_hashes(
        make_app: Callable[..., FastAPI], database: Database) -> None:
    with TestClient(make_app()) as http:
        first, second = new_game(http, name="Ann")
        waiting = create_game(http)
    secrets = [first["token"], second["token"], first["invite_code"], waiting["token"],
               waiting["invite_code"]]

    def sha256(secret: str) -> str:
        return hashlib.sha256(secret.encode()).hexdigest()

    game, seats, _ = _rows(database, first["game_id"])
    assert game.invite_hash == sha256(first["invite_code"])
    assert [s.token_hash for s in seats] == [sha256(first["token"]), sha256(second["token"])]
    other, other_seats, _ = _rows(database, waiting["game_id"])
    assert other.invite_hash == sha256(waiting["invite_code"])
    assert [s.token_hash for s in other_seats] == [sha256(waiting["token"])]
    for row in (game, *seats, other, *other_seats):
        stored = " ".join(str(value) for value in row)
        for secret in secrets:
            assert secret not in stored, "a secret stored as it is"
