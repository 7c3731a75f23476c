"""HTTP API: create, join, summary, views, refusals."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.api.paths import PATH_MAX, REFUSED_SOCKET, SEGMENT_MAX
from app.api.refusals import RefusalBody
from tests.factories import (
    Database,
    assert_refused,
    bearer,
    game_row,
    new_game,
    seat_view,
    spectator_view,
)

FIRST_PLAYER_WONDERS = ["the_great_lighthouse", "the_pyramids", "the_statue_of_zeus",
                        "the_temple_of_artemis"]
SECOND_PLAYER_WONDERS = ["the_appian_way", "circus_maximus", "the_colossus", "piraeus"]


def test_create_join_and_read_a_game(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        created = client.post("/api/games", json={"first_player": "creator", "name": "Ann"})
        assert created.status_code == 201
        game = created.json()
        assert game["seat"] == 0 and game["invite_url"].endswith(game["invite_code"])
        summary = client.get(f"/api/games/{game['game_id']}").json()
        assert summary["status"] == "waiting"
        assert [s["taken"] for s in summary["seats"]] == [True, False]
        joined = client.post(f"/api/games/{game['game_id']}/join",
                             json={"invite_code": game["invite_code"], "name": "Bo"})
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        assert client.get(f"/api/games/{game['game_id']}").json()["status"] == "active"
        view = client.get(f"/api/games/{game['game_id']}/view",
                          headers={"Authorization": f"Bearer {game['token']}"}).json()
        assert view["seat"] == 0 and view["version"] == 0
        assert view["view"]["legal_actions"], "seat 0 starts the draft"


# ---------------------------------------------------------------------- creating

def test_defaults_are_a_draft_with_a_random_first_player(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        game = client.post("/api/games", json={}).json()
        summary = client.get(f"/api/games/{game['game_id']}").json()
        assert summary["options"] == {"wonder_selection": "draft", "first_player": None}
        assert summary["version"] == 0 and summary["winner"] is None
        assert summary["seats"] == [{"seat": 0, "taken": True, "name": None, "computer": None},
                                    {"seat": 1, "taken": False, "name": None,
                                     "computer": None}]


def test_creator_first_draft_starts_with_seat_0_picking(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        first, second = new_game(client, wonder_selection="draft", first_player="creator")
        game_id = first["game_id"]
        assert client.get(f"/api/games/{game_id}").json()["options"] == {
            "wonder_selection": "draft", "first_player": 0}
        mine = seat_view(client, game_id, first["token"])["view"]
        assert mine["phase"] == "draft" and mine["to_act"] == 0 and mine["first_player"] == 0
        assert mine["decision"]["kind"] == "pick_wonder"
        assert len(mine["draft"]["offer"]) == 4
        assert sorted(a["action"]["wonder"] for a in mine["legal_actions"]) == sorted(
            mine["draft"]["offer"])
        # Nobody has a wonder yet: it is a draft.
        assert all(p["wonders"] == [] for p in mine["players"])
        theirs = seat_view(client, game_id, second["token"])["view"]
        assert theirs["to_act"] == 0 and "legal_actions" not in theirs


def test_creator_first_first_game_gives_the_rulebook_wonders(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        first, second = new_game(client, wonder_selection="first_game", first_player="creator")
        game_id = first["game_id"]
        assert client.get(f"/api/games/{game_id}").json()["options"] == {
            "wonder_selection": "first_game", "first_player": 0}
        view = seat_view(client, game_id, first["token"])["view"]
        assert view["phase"] == "play" and view["age"] == 1, "no draft in a first game"
        assert view["to_act"] == 0 and view["decision"]["kind"] == "play_card"
        wonders = [[w["wonder"] for w in p["wonders"]] for p in view["players"]]
        assert sorted(wonders[0]) == sorted(FIRST_PLAYER_WONDERS)
        assert sorted(wonders[1]) == sorted(SECOND_PLAYER_WONDERS)
        assert view["legal_actions"]
        assert "legal_actions" not in seat_view(client, game_id, second["token"])["view"]


def test_random_first_player_gives_both_seats_a_turn_to_start(
        make_app: Callable[..., FastAPI]) -> None:
    """With ``random``, sometimes the creator starts and sometimes the other seat (the
    chance that 24 games all start with the same seat is 2 in 16 million). In a first game
    the rulebook's first-player wonders go to whoever starts."""
    starters = set()
    with TestClient(make_app()) as client:
        for i in range(24):
            selection = "first_game" if i % 2 else "draft"
            game = client.post("/api/games", json={"wonder_selection": selection,
                                                   "first_player": "random"}).json()
            summary = client.get(f"/api/games/{game['game_id']}").json()
            assert summary["options"] == {"wonder_selection": selection, "first_player": None}
            view = spectator_view(client, game["game_id"])["view"]
            assert view["to_act"] == view["first_player"]
            starters.add(view["first_player"])
            if selection == "first_game":
                starter = view["players"][view["first_player"]]
                assert sorted(w["wonder"] for w in starter["wonders"]) == sorted(
                    FIRST_PLAYER_WONDERS)
    assert starters == {0, 1}


def test_names_are_shown_in_the_summary(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        game = client.post("/api/games", json={"name": "Ann"}).json()
        client.post(f"/api/games/{game['game_id']}/join",
                    json={"invite_code": game["invite_code"], "name": "Bo"})
        seats = client.get(f"/api/games/{game['game_id']}").json()["seats"]
        assert seats == [{"seat": 0, "taken": True, "name": "Ann", "computer": None},
                         {"seat": 1, "taken": True, "name": "Bo", "computer": None}]


# ---------------------------------------------------------------------- invite links

def test_invite_link_and_socket_url_follow_the_public_url(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app(public_url="https://duel.example.org/")) as client:
        game = client.post("/api/games", json={}).json()
        game_id, code = game["game_id"], game["invite_code"]
        assert game["invite_url"] == f"https://duel.example.org/join/{game_id}#code={code}"
        assert game["socket_url"] == f"wss://duel.example.org/ws/games/{game_id}"
        # The opponent only has the link: what it carries is enough to join.
        link = urlsplit(game["invite_url"])
        linked_id = link.path.rsplit("/", 1)[-1]
        linked_code = parse_qs(link.fragment)["code"][0]
        joined = client.post(f"/api/games/{linked_id}/join", json={"invite_code": linked_code})
        assert joined.status_code == 200, joined.text
        seat = joined.json()
        assert seat["game_id"] == game_id and seat["seat"] == 1
        assert seat["socket_url"] == game["socket_url"]
        assert seat["token"] and seat["token"] != game["token"]
        assert "invite_code" not in seat, "only the creator is given the invite"


@pytest.mark.parametrize(("public_url", "site", "sockets"), [
    ("http://localhost:8123", "http://localhost:8123", "ws://localhost:8123"),
    ("https://example.org/duel/", "https://example.org/duel", "wss://example.org/duel"),
])
def test_a_public_url_gives_links_with_its_scheme_and_path(
        make_app: Callable[..., FastAPI], public_url: str, site: str, sockets: str) -> None:
    """Plain http gives ws socket URLs (https gives wss), and a path is kept."""
    with TestClient(make_app(public_url=public_url)) as client:
        game = client.post("/api/games", json={}).json()
        assert game["invite_url"] == f"{site}/join/{game['game_id']}#code={game['invite_code']}"
        assert game["socket_url"] == f"{sockets}/ws/games/{game['game_id']}"


def test_every_game_has_its_own_id_token_and_invite(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        games = [client.post("/api/games", json={}).json() for _ in range(5)]
    for key in ("game_id", "token", "invite_code"):
        assert len({g[key] for g in games}) == 5, key
    assert all(len(g["token"]) >= 32 and len(g["invite_code"]) >= 12 for g in games)


# ---------------------------------------------------------------------- joining

def test_join_refusals(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        game = client.post("/api/games", json={}).json()
        game_id = game["game_id"]
        other = client.post("/api/games", json={}).json()

        assert_refused(client.post(f"/api/games/{game_id}/join",
                                    json={"invite_code": "not-the-code"}), 403, "bad_invite")
        # Another game's code does not open this one.
        assert_refused(client.post(f"/api/games/{game_id}/join",
                                    json={"invite_code": other["invite_code"]}),
                        403, "bad_invite")
        assert client.get(f"/api/games/{game_id}").json()["status"] == "waiting"

        assert client.post(f"/api/games/{game_id}/join",
                           json={"invite_code": game["invite_code"]}).status_code == 200
        assert_refused(client.post(f"/api/games/{game_id}/join",
                                    json={"invite_code": game["invite_code"]}),
                        409, "game_full")
        # A wrong code on a full game still says nothing about the game's seats.
        assert_refused(client.post(f"/api/games/{game_id}/join",
                                    json={"invite_code": "guess"}), 403, "bad_invite")
        assert_refused(client.post("/api/games/no-such-game/join",
                                    json={"invite_code": game["invite_code"]}),
                        404, "not_found")
        summary = client.get(f"/api/games/{game_id}").json()
        assert summary["status"] == "active"
        assert [s["taken"] for s in summary["seats"]] == [True, True]


def test_joining_again_does_not_replace_the_second_seat(make_app: Callable[..., FastAPI]) -> None:
    """The second seat is taken once: its token stays the one handed out first."""
    with TestClient(make_app()) as client:
        first, second = new_game(client)
        game_id = first["game_id"]
        client.post(f"/api/games/{game_id}/join", json={"invite_code": first["invite_code"]})
        assert seat_view(client, game_id, second["token"])["seat"] == 1
        assert seat_view(client, game_id, first["token"])["seat"] == 0


# ---------------------------------------------------------------------- validation

BAD_BODIES: list[tuple[str, Any]] = [
    ("/api/games", {"wonder_selection": "tournament"}),
    ("/api/games", {"first_player": "joiner"}),
    ("/api/games", {"first_player": 0}),
    ("/api/games", {"name": "x" * 41}),
    ("/api/games", {"name": ""}),
    ("/api/games", [1, 2]),
    ("/api/games", {"listed": "yes"}),  # not coerced: only true and false are booleans
    ("/api/games", {"listed": 1}),
    ("/api/games/{game_id}/join", {"invite_code": ""}),
    ("/api/games/{game_id}/join", {"invite_code": "{invite_code}", "name": "   "}),
    ("/api/games/{game_id}/join", {"invite_code": "x" * 101}),
    ("/api/games/{game_id}/join", {"invite_code": "{invite_code}", "name": "y" * 41}),
    ("/api/games/{game_id}/join", {"invite_code": 12345}),
]


def test_bad_bodies_are_refused_with_422_and_change_nothing(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        game = client.post("/api/games", json={}).json()
        for path, body in BAD_BODIES:
            text = json.dumps(body).replace("{invite_code}", game["invite_code"])
            response = client.post(path.format(game_id=game["game_id"]), content=text,
                                   headers={"Content-Type": "application/json"})
            assert response.status_code == 422, (path, body, response.text)
        summary = client.get(f"/api/games/{game['game_id']}").json()
        assert summary["status"] == "waiting", "a refused join takes no seat"
        assert [s["taken"] for s in summary["seats"]] == [True, False]
        assert client.post(f"/api/games/{game['game_id']}/join",
                           json={"invite_code": game["invite_code"]}).status_code == 200


def test_a_name_of_40_characters_is_accepted(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        game = client.post("/api/games", json={"name": "é" * 40})
        assert game.status_code == 201, game.text
        joined = client.post(f"/api/games/{game.json()['game_id']}/join",
                             json={"invite_code": game.json()["invite_code"], "name": "Ω" * 40})
        assert joined.status_code == 200, joined.text
        seats = client.get(f"/api/games/{game.json()['game_id']}").json()["seats"]
        assert [s["name"] for s in seats] == ["é" * 40, "Ω" * 40]


def test_validation_refusals_have_the_error_shape(make_app: Callable[..., FastAPI]) -> None:
    """Every refusal has the one documented shape, so clients handle errors in one place:
    a 422 names the first problem."""
    with TestClient(make_app()) as client:
        response = client.post("/api/games", json={"wonder_selection": "tournament"})
        assert_refused(response, 422, "invalid_request")
        assert "wonder_selection" in response.json()["error"]["message"]
        game = client.post("/api/games", json={}).json()
        response = client.post(f"/api/games/{game['game_id']}/join",
                               json={"name": "Bo", "invite_code": 7})
        assert_refused(response, 422, "invalid_request")
        assert "invite_code" in response.json()["error"]["message"]
        response = client.post(f"/api/games/{game['game_id']}/join", json={"name": "Bo"})
        assert_refused(response, 403, "bad_invite")  # unlisted: the invite link is needed
        assert_refused(client.post("/api/games", content=b"{not json",
                                    headers={"Content-Type": "application/json"}),
                        422, "invalid_request")


def test_unknown_paths_and_methods_have_the_error_shape(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        assert_refused(client.get("/api/nothing-here"), 404, "not_found")
        refused = client.delete("/api/games")
        assert_refused(refused, 405, "method_not_allowed")
        assert refused.headers["allow"] == "POST"  # RFC 9110: a 405 says what would do
        game = client.post("/api/games", json={}).json()
        refused = client.put(f"/api/games/{game['game_id']}")
        assert_refused(refused, 405, "method_not_allowed")
        assert refused.headers["allow"] == "GET, HEAD"
        # A path several routes share: every method any of them takes.
        refused = client.post("/api/me")
        assert_refused(refused, 405, "method_not_allowed")
        assert refused.headers["allow"] == "DELETE, GET, HEAD, PUT"


SEGMENT = "a" * 256
"""One byte over the longest path segment taken (app/api/paths.py)."""


@pytest.mark.parametrize("path", [
    "/api/players/%00", "/api/games/%00/view", "/static/%00", "/static/js/%00.js",
    "/vendor/%00", "/games/%00", "/%00", "/api/games/x%0A", "/static/%1F", "/ws/%00",
])
def test_a_control_character_in_an_address_is_refused_before_anything_reads_it(
        make_app: Callable[..., FastAPI], caplog: pytest.LogCaptureFixture, path: str) -> None:
    with TestClient(make_app()) as client:
        refused = client.get(path, headers={"accept": "text/html"})
        assert assert_refused(refused, 400, "bad_address")["params"] == {"cause": "control"}
        # In the query, a NUL is the route's to refuse (or leave unread): never a 5xx.
        assert client.get("/api/leaderboard?page=1%00").status_code == 422
        assert client.get(f"/?next={path}").status_code == 200
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_socket_at_an_address_that_names_nothing_is_refused(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        for path in ("/ws/games/%00", f"/ws/games/{SEGMENT}", "/ws/lobby%0A"):
            with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(path):
                pass
            assert refused.value.code == REFUSED_SOCKET, path


@pytest.mark.parametrize("path", [
    f"/static/{SEGMENT}", f"/static/js/{SEGMENT}.js", f"/vendor/{SEGMENT}",
    f"/api/players/{SEGMENT}", f"/api/games/{SEGMENT}", f"/games/{SEGMENT}",
    "/static/" + "%C3%A9" * 43,  # 43 characters, 258 bytes as sent
    "/static" + "/a" * 1100,  # short segments, a long path
])
def test_an_over_long_address_is_refused_with_its_limit(
        make_app: Callable[..., FastAPI], caplog: pytest.LogCaptureFixture, path: str) -> None:
    with TestClient(make_app()) as client:
        error = assert_refused(client.get(path), 414, "bad_address")
        assert error["params"]["cause"] == "too_long"
        assert error["params"]["max"] == (PATH_MAX if path.count("/") > 100 else SEGMENT_MAX)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("path", [
    "/static/js/", "/static/js", "/static/", "/vendor/", "/static/" + "a" * 255,
    "/static/%C3%A9t%C3%A9.js", "/static/%F0%9F%8F%9B", "/api/players/%C3%A9",
    "/api/games/%F0%9F%8F%9B", "/static/..%2F..%2Fapp%2Fmain.py", "/static/%FF%FE",
])
def test_a_file_or_id_that_is_not_there_is_not_found_not_an_outage(
        make_app: Callable[..., FastAPI], caplog: pytest.LogCaptureFixture, path: str) -> None:
    """A directory, a name no file has: 404 (the file system's refusal is not a storage
    failure: the server stays available)."""
    with TestClient(make_app()) as client:
        assert_refused(client.get(path), 404, "not_found")
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_unknown_fields_are_ignored(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        created = client.post("/api/games", json={"colour": "red", "name": "Ann"})
        assert created.status_code == 201, created.text
        game = created.json()
        joined = client.post(f"/api/games/{game['game_id']}/join",
                             json={"invite_code": game["invite_code"], "seat": 0})
        assert joined.status_code == 200 and joined.json()["seat"] == 1


# ---------------------------------------------------------------------- views

def test_seat_view_needs_the_seat_token(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        first, _second = new_game(client)
        other, _ = new_game(client)
        url = f"/api/games/{first['game_id']}/view"
        for headers in ({}, {"Authorization": ""}, {"Authorization": "Bearer"},
                        {"Authorization": "Bearer "}, {"Authorization": first["token"]},
                        {"Authorization": f"Basic {first['token']}"},
                        bearer("forged-token"), bearer(first["token"][:-1]),
                        bearer(first["invite_code"]), bearer(other["token"])):
            assert_refused(client.get(url, headers=headers), 401, "bad_credentials")
        assert client.get(url, headers={"Authorization": f"bearer {first['token']}"}
                          ).json()["seat"] == 0
        assert_refused(client.get("/api/games/no-such-game/view",
                                   headers=bearer(first["token"])), 404, "not_found")


def test_seat_views_differ_only_in_what_each_seat_may_see(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        first, second = new_game(client, first_player="creator")
        game_id = first["game_id"]
        mine = seat_view(client, game_id, first["token"])
        theirs = seat_view(client, game_id, second["token"])
        watched = spectator_view(client, game_id)
        assert (mine["seat"], theirs["seat"], watched["seat"]) == (0, 1, None)
        assert mine["version"] == theirs["version"] == watched["version"] == 0
        assert mine["view"]["viewer"] == 0 and theirs["view"]["viewer"] == 1
        assert watched["view"]["viewer"] is None
        assert mine["view"]["legal_actions"], "seat 0 is to act"
        assert "legal_actions" not in theirs["view"]
        assert "legal_actions" not in watched["view"]
        assert "card_options" not in theirs["view"] and "card_options" not in watched["view"]
        assert mine["view"]["can_take_back"] is theirs["view"]["can_take_back"] is False
        assert "can_take_back" not in watched["view"]

        def shared(view: dict[str, Any]) -> dict[str, Any]:
            private = ("viewer", "legal_actions", "card_options", "can_take_back")
            return {k: v for k, v in view.items() if k not in private}

        assert shared(mine["view"]) == shared(theirs["view"]) == shared(watched["view"])


def test_first_game_views_of_both_seats_show_the_same_table(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        first, second = new_game(client, wonder_selection="first_game", first_player="creator")
        game_id = first["game_id"]
        mine = seat_view(client, game_id, first["token"])["view"]
        theirs = seat_view(client, game_id, second["token"])["view"]
        watched = spectator_view(client, game_id)["view"]
        assert mine["structure"] == theirs["structure"] == watched["structure"]
        face_down = [s for s in watched["structure"] if not s["face_up"]]
        assert face_down and all(s["card"] is None for s in face_down)
        assert "legal_actions" in mine and "legal_actions" not in theirs
        assert "legal_actions" not in watched


def test_a_waiting_game_can_be_watched_and_viewed_by_its_creator(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        game = client.post("/api/games", json={"first_player": "creator"}).json()
        view = seat_view(client, game["game_id"], game["token"])
        assert view["seat"] == 0 and view["version"] == 0
        watched = client.get(f"/api/games/{game['game_id']}/spectate")
        assert watched.status_code == 200 and "legal_actions" not in watched.json()["view"]


def test_unknown_game(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        for response in (client.get("/api/games/no-such-game"),
                         client.get("/api/games/no-such-game/spectate"),
                         client.get(f"/api/games/{'x' * 200}"),
                         client.post("/api/games/no-such-game/join",
                                     json={"invite_code": "abc"})):
            assert_refused(response, 404, "not_found")


def test_secrets_never_appear_in_public_answers(
        make_app: Callable[..., FastAPI], database: Database) -> None:
    with TestClient(make_app()) as client:
        first, second = new_game(client, first_player="creator", name="Ann")
        game_id = first["game_id"]
        seed = asyncio.run(game_row(database, game_id)).seed
        summary = client.get(f"/api/games/{game_id}")
        watched = client.get(f"/api/games/{game_id}/spectate")
        mine = client.get(f"/api/games/{game_id}/view", headers=bearer(first["token"]))
        theirs = client.get(f"/api/games/{game_id}/view", headers=bearer(second["token"]))
        for response in (summary, watched, mine, theirs):
            assert response.status_code == 200
            for secret in (first["token"], second["token"], first["invite_code"], str(seed)):
                assert secret not in response.text
        keys = set(summary.json())
        assert not keys & {"seed", "token", "tokens", "invite_code", "invite_hash"}, keys
        assert all(set(seat) == {"seat", "taken", "name", "computer"}
                   for seat in summary.json()["seats"])


# ---------------------------------------------------------------------- documentation

def test_openapi_and_docs_are_served(make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        schema = client.get("/openapi.json")
        assert schema.status_code == 200
        paths = schema.json()["paths"]
        assert {"/api/games", "/api/games/{game_id}", "/api/games/{game_id}/join",
                "/api/games/{game_id}/view", "/api/games/{game_id}/spectate"} <= set(paths)
        assert "post" in paths["/api/games"] and "post" in paths["/api/games/{game_id}/join"]
        docs = client.get("/docs")
        assert docs.status_code == 200 and "text/html" in docs.headers["content-type"]
        assert "/openapi.json" in docs.text
        redoc = client.get("/redoc")
        assert redoc.status_code == 200 and "text/html" in redoc.headers["content-type"]


def test_every_refusal_is_documented_with_its_shape(make_app: Callable[..., FastAPI]) -> None:
    """A client generated from /openapi.json knows each status a route may refuse with,
    and the one body every refusal has (not FastAPI's default validation error)."""
    with TestClient(make_app()) as client:
        spec = client.get("/openapi.json").json()
        game = client.post("/api/games", json={}).json()
        game_id, code = game["game_id"], game["invite_code"]
        client.post(f"/api/games/{game_id}/join", json={"invite_code": code})
        refused = [
            ("post", "/api/games", client.post("/api/games", json={"listed": "yes"})),
            ("post", "/api/games/{game_id}/join",
             client.post(f"/api/games/{game_id}/join", json={"invite_code": "wrong"})),
            ("post", "/api/games/{game_id}/join",
             client.post(f"/api/games/{game_id}/join", json={"invite_code": code})),
            ("post", "/api/games/{game_id}/join",
             client.post("/api/games/nothing/join", json={"invite_code": code})),
            ("get", "/api/games/{game_id}", client.get("/api/games/nothing")),
            ("get", "/api/games/{game_id}/view", client.get(f"/api/games/{game_id}/view")),
            ("get", "/api/games/{game_id}/spectate", client.get("/api/games/x/spectate")),
            ("get", "/api/me", client.get("/api/me")),
            ("put", "/api/me", client.put("/api/me", json={"name": "\u0007"})),
        ]
        for method, path, response in refused:
            documented = spec["paths"][path][method]["responses"]
            status = str(response.status_code)
            assert status in documented, (method, path, status, sorted(documented))
            assert documented[status]["content"]["application/json"]["schema"] == \
                {"$ref": "#/components/schemas/RefusalBody"}, (method, path, status)
            RefusalBody.model_validate(response.json())
        assert "HTTPValidationError" not in json.dumps(spec)
        for path, operations in spec["paths"].items():
            for method, operation in operations.items():
                # Every route but those that never read the database.
                if path.startswith("/api/") \
                        and path not in ("/api/catalog", "/api/protocol.schema.json") \
                        and (method, path) != ("delete", "/api/me"):
                    assert "503" in operation["responses"], (method, path)
