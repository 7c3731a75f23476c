"""Ratings over HTTP: a rated game between two accounts, created and joined from their
browsers, moves the ratings its result says; the lobby, the game's summary, the profiles,
the leaderboard (its order and its pages) and the site's statistics show it."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import insert, update

from app.db.models import Player
from tests.factories import (
    Database,
    LobbyClient,
    assert_refused,
    browser,
    counting_still,
    first_decisions,
    ok,
    player,
    serve,
)

PASSWORD = "a long enough secret"


def _account(client: TestClient, username: str) -> TestClient:
    other = browser(client)
    ok(other.post("/api/account", json={"username": username, "password": PASSWORD}), 201)
    return other


def _rated_game(ann: TestClient, bob: TestClient) -> str:
    created = ok(ann.post("/api/games", json={"rated": True}), 201)
    ok(bob.post(f"/api/games/{created['game_id']}/join",
                json={"invite_code": created["invite_code"]}))
    return str(created["game_id"])


def _app(make_app: Callable[..., FastAPI], **settings: Any) -> FastAPI:
    return counting_still(make_app(server_heartbeat=3600, **settings))


def test_a_rated_game_between_two_accounts(make_app: Callable[..., FastAPI]) -> None:
    app = _app(make_app, leaderboard_min_games=1)
    with serve(app) as client:
        ann, bob = _account(client, "Ann"), _account(client, "bob")
        assert_refused(client.post("/api/games", json={"rated": True}), 403,
                       "rated_needs_account")
        game_id = _rated_game(ann, bob)
        assert ok(client.get(f"/api/games/{game_id}"))["rated"] is True
        [entry] = ok(ann.get("/api/lobby"))["mine"]
        assert entry["rated"] is True
        assert [(s["username"], s["rating"], s["provisional"]) for s in entry["seats"]] == [
            ("Ann", 1500, True), ("bob", 1500, True)]
        client.portal.call(first_decisions, app.state.service, game_id)
        client.portal.call(app.state.service.resign, game_id, 1)
        assert ok(client.get(f"/api/games/{game_id}"))["ratings"] == [
            {"seat": 0, "before": 1500, "after": ok(client.get("/api/players/ann"))["rating"]},
            {"seat": 1, "before": 1500, "after": ok(client.get("/api/players/bob"))["rating"]}]

        winner, loser = (ok(client.get(f"/api/players/{name}")) for name in ("ann", "BOB"))
        assert winner["rating"] > 1500 > loser["rating"]
        assert winner["rating"] - 1500 == 1500 - loser["rating"]
        assert (winner["rated_games"], winner["wins"], winner["losses"]) == (1, 1, 0)
        assert winner["results"]["resigned"] == {"won": 1, "lost": 0}
        assert loser["results"]["resigned"] == {"won": 0, "lost": 1}
        assert [h["game_id"] for h in winner["history"]] == [game_id]
        [recent] = winner["recent"]
        assert (recent["game_id"], recent["result"], recent["opponent_username"],
                recent["rated"]) == (game_id, "win", "bob", True)
        assert recent["rating_change"] > 0 > loser["recent"][0]["rating_change"]
        board = ok(client.get("/api/leaderboard"))
        assert [(p["rank"], p["username"]) for p in board["players"]] == [(1, "Ann"), (2, "bob")]
        assert_refused(client.get("/api/players/nobody"), 404, "not_found")
        stats = ok(client.get("/api/stats"))
        assert stats["games"] == 1
        assert stats["victories"]["resigned"] == {"games": 1, "percent": 100.0}
        assert stats["victories"]["civilian"] == {"games": 0, "percent": 0.0}
        assert stats["first_player"]["decided"] == 1
        assert stats["first_player"]["wins"] in (0, 1)
        assert stats["length"]["actions"] == 3.0  # each seat's first pick, the resignation
        assert stats["length"]["by_victory"]["resigned"]["games"] == 1
        assert len(stats["wonders"]) == 2  # one picked by each seat


def _lobby(client: TestClient) -> LobbyClient:
    socket = LobbyClient(client, timeout=10.0)
    assert socket.receive()["type"] == "lobby"
    return socket


def _reply(socket: LobbyClient) -> dict[str, Any]:
    """The next message that is not a lobby picture."""
    while (message := socket.receive())["type"] == "lobby":
        pass
    return message


def test_rated_quick_match_pairs_accounts_by_rating(make_app: Callable[..., FastAPI],
                                                    database: Database) -> None:
    app = _app(make_app, lobby_debounce=0.01)
    with serve(app) as client:
        carl = browser(client)
        player(carl, "Carl")
        with _lobby(carl) as guest:
            guest.send({"type": "play", "rated": True})
            assert _reply(guest)["code"] == "rated_needs_account"
        ann, bob, cat = (_account(client, name) for name in ("ann", "bob", "cat"))
        client.portal.call(_set_rating, database, "cat", 2000.0)
        with _lobby(ann) as anns, _lobby(bob) as bobs, _lobby(cat) as cats:
            anns.send({"type": "play", "rated": True})
            assert _reply(anns) == {"type": "queue", "state": "waiting", "rated": True}
            cats.send({"type": "play", "rated": True})  # 500 away: too far to pair yet
            assert _reply(cats) == {"type": "queue", "state": "waiting", "rated": True}
            bobs.send({"type": "play"})  # unrated: not paired with either
            assert _reply(bobs) == {"type": "queue", "state": "waiting"}
            # A minute and a half later the heartbeat's sweep finds the gap wide enough.
            later = datetime.now(UTC) + timedelta(seconds=90)
            client.portal.call(app.state.quick_match.pair_waiting, later)
            to_ann, to_cat = _reply(anns), _reply(cats)
            assert (to_ann["type"], to_ann["seat"], to_cat["seat"]) == ("matched", 0, 1)
            assert to_ann["game_id"] == to_cat["game_id"]
            summary = ok(client.get(f"/api/games/{to_ann['game_id']}"))
            assert (summary["rated"], summary["origin"]) == (True, "quick_match")


async def _set_rating(database: Database, username: str, rating: float) -> None:
    await database.write(update(Player).where(Player.login == username).values(rating=rating))


async def _players(database: Database, rows: list[tuple[str, float, int]]) -> None:
    for username, rating, games in rows:
        await database.write(insert(Player).values(
            id=secrets.token_hex(8), name=username, username=username,
            login=username.lower(), password_hash="x", rating=rating,
            rating_deviation=60.0 if games > 10 else 200.0, rated_games=games))


def test_the_leaderboard_orders_and_pages(make_app: Callable[..., FastAPI],
                                          database: Database) -> None:
    app = _app(make_app, leaderboard_min_games=5)
    with serve(app) as client:
        rows = [("carol", 1700.0, 30), ("dave", 1650.0, 5), ("erin", 1650.0, 12),
                ("Abe", 1650.0, 12), ("fay", 2400.0, 4), ("gus", 1400.0, 50)]
        client.portal.call(_players, database, rows)
        board = ok(client.get("/api/leaderboard", params={"per_page": 2}))
        assert (board["total"], board["pages"], board["min_games"]) == (5, 3, 5)
        pages = [board] + [ok(client.get("/api/leaderboard",
                                         params={"per_page": 2, "page": page}))
                           for page in (2, 3)]
        ranked = [(p["rank"], p["username"], p["rating"], p["provisional"])
                  for page in pages for p in page["players"]]
        # fay has too few games; ties on rating go to the most games, then the name.
        assert ranked == [(1, "carol", 1700, False), (2, "Abe", 1650, False),
                          (3, "erin", 1650, False), (4, "dave", 1650, True),
                          (5, "gus", 1400, False)]
        assert ok(client.get("/api/leaderboard", params={"page": 9}))["players"] == []
        for bad in ({"page": 0}, {"per_page": 101}, {"page": "two"}):
            assert_refused(client.get("/api/leaderboard", params=bad), 422,
                           "invalid_request")


def test_a_guests_finished_games_join_the_profile_at_login(
        make_app: Callable[..., FastAPI]) -> None:
    app = _app(make_app)
    with serve(app) as client:
        _account(client, "ann")
        away = browser(client)
        player(away, "Ann on the train")
        created = ok(away.post("/api/games", json={}), 201)
        ok(browser(client).post(f"/api/games/{created['game_id']}/join",
                                json={"invite_code": created["invite_code"]}))
        client.portal.call(first_decisions, app.state.service, created["game_id"])
        client.portal.call(app.state.service.resign, created["game_id"], 1)
        assert ok(client.get("/api/players/ann"))["games"] == 0
        ok(away.post("/api/login", json={"username": "ann", "password": PASSWORD}))
        profile = ok(client.get("/api/players/ann"))
        assert (profile["games"], profile["wins"], profile["rated_games"]) == (1, 1, 0)
        assert [(g["game_id"], g["rated"]) for g in profile["recent"]] == [
            (created["game_id"], False)]
