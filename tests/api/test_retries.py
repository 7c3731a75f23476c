"""A create or a join whose answer was lost can be sent again (Idempotency-Key): it gets
working credentials for the same seat, never anyone else's, and changes nothing. Games
nobody joins expire."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.factories import (
    Database,
    assert_refused,
    bearer,
    browser,
    game_row,
    ok,
    player,
    serve,
    servers,
)

KEY = "k" * 22


def _create(client: TestClient, key: str | None = KEY, **body: Any) -> Any:
    return client.post("/api/games", json=body,
                       headers={} if key is None else {"Idempotency-Key": key})


def _join(client: TestClient, game_id: str, code: str | None, key: str | None = KEY) -> Any:
    return client.post(f"/api/games/{game_id}/join",
                       json={} if code is None else {"invite_code": code},
                       headers={} if key is None else {"Idempotency-Key": key})


def _games_in_lobby(client: TestClient) -> list[str]:
    return [entry["game_id"] for entry in ok(client.get("/api/lobby"))["open"]]


def test_a_lost_join_answer_sent_again_gets_the_same_seat(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        created = ok(_create(client, key=None), 201)
        game_id, code = created["game_id"], created["invite_code"]
        first = ok(_join(client, game_id, code))      # this answer is "lost"
        again = ok(_join(client, game_id, code))      # the retry
        assert again == first and again["seat"] == 1
        # The token works: the seat's view opens with it.
        view = ok(client.get(f"/api/games/{game_id}/view", headers=bearer(again["token"])))
        assert view["seat"] == 1 and view["version"] == 0
        # Nothing changed: still one join, the game started once.
        summary = ok(client.get(f"/api/games/{game_id}"))
        assert summary["status"] == "active" and summary["version"] == 0
        # Anyone else (another key, or none) finds the game full, as before.
        assert_refused(_join(client, game_id, code, key="x" * 22), 409, "game_full")
        assert_refused(_join(client, game_id, code, key=None), 409, "game_full")


def test_a_lost_create_answer_sent_again_creates_nothing(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        first = ok(_create(client, listed=True), 201)
        again = ok(_create(client, listed=True), 201)
        assert again == first  # the same game, token and invite code
        assert _games_in_lobby(client) == [first["game_id"]]
        view = ok(client.get(f"/api/games/{first['game_id']}/view",
                             headers=bearer(again["token"])))
        assert view["seat"] == 0
        # The invite code given again works.
        joined = ok(_join(browser(client), first["game_id"], again["invite_code"], key=None))
        assert joined["seat"] == 1
        # A new key is a new game.
        other = ok(_create(client, key="n" * 22), 201)
        assert other["game_id"] != first["game_id"]


def test_a_key_never_opens_another_players_seat(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        ann, eve = browser(client), browser(client)
        player(ann, "Ann")
        player(eve, "Eve")
        created = ok(_create(ann), 201)
        # Eve learnt Ann's key: she gets a refusal, not Ann's seat.
        refused = assert_refused(_create(eve), 409, "key_reused")
        assert "token" not in str(refused)
        game_id, code = created["game_id"], created["invite_code"]
        bob = browser(client)
        player(bob, "Bob")
        ok(_join(bob, game_id, code, key="b" * 22))
        assert_refused(_join(eve, game_id, code, key="b" * 22), 409, "key_reused")


def test_a_key_must_look_like_one(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        for bad in ("short", "x" * 101, "has spaces in it!!!!!"):
            assert_refused(_create(client, key=bad), 422, "invalid_request")
        assert ok(client.get("/api/lobby"))["open"] == []


async def test_the_same_join_sent_twice_at_once_on_two_servers(database: Database) -> None:
    async with servers(database, 2) as (a, b):
        created = await a.service.create_game(wonder_selection="draft", creator_starts=False,
                                              name="Ann")
        game_id = created.credentials.game_id
        answers = await asyncio.gather(
            *(server.service.join_game(game_id, created.invite_code, "Bob", request_key=KEY)
              for server in (a, b)), return_exceptions=True)
        assert all(not isinstance(answer, BaseException) for answer in answers), answers
        assert answers[0] == answers[1]
        assert (await game_row(database, game_id)).status == "active"


async def test_the_same_create_sent_twice_at_once_on_two_servers(database: Database) -> None:
    async with servers(database, 2) as (a, b):
        answers = await asyncio.gather(
            *(server.service.create_game(wonder_selection="draft", creator_starts=False,
                                         name="Ann", request_key=KEY) for server in (a, b)),
            return_exceptions=True)
        assert all(not isinstance(answer, BaseException) for answer in answers), answers
        assert answers[0] == answers[1]


def test_a_game_nobody_joins_expires(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(open_game_hours=1, server_heartbeat=3600)  # the wall moves by hand only
    with serve(app) as client:
        created = ok(_create(client, key=None, listed=True), 201)
        game_id = created["game_id"]
        assert _games_in_lobby(client) == [game_id]
        waiting = ok(_create(client, key=None), 201)  # created within the hour: stays
        app.state.wall.offset += timedelta(minutes=59)
        assert client.portal.call(app.state.expiry.sweep) == []
        app.state.wall.offset += timedelta(minutes=2)
        assert set(client.portal.call(app.state.expiry.sweep)) == {game_id, waiting["game_id"]}
        assert _games_in_lobby(client) == []
        assert ok(client.get(f"/api/games/{game_id}"))["status"] == "expired"
        refused = assert_refused(_join(browser(client), game_id, created["invite_code"]),
                                 409, "not_joinable")
        assert refused["params"] == {"status": "expired"}
        assert client.portal.call(app.state.expiry.sweep) == []  # once


def test_a_game_past_its_hour_is_not_joined_before_the_sweep(
        make_app: Callable[..., FastAPI]) -> None:
    app = make_app(open_game_hours=1, server_heartbeat=3600)  # the wall moves by hand only
    with serve(app) as client:
        created = ok(_create(client, key=None), 201)
        app.state.wall.offset += timedelta(minutes=61)
        refused = assert_refused(_join(browser(client), created["game_id"],
                                       created["invite_code"]), 409, "not_joinable")
        assert refused["params"] == {"status": "expired"}
