"""Players (docs/lobby.md, "Players and their session"): a display name behind a signed
session cookie; the session puts the player in the seats they create or join, and opens
those seats on the game socket as a token would.

Every test runs on SQLite and on PostgreSQL (the ``make_app`` fixture)."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from typing import Any
from unittest.mock import ANY

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api.players import name_schema
from app.services.errors import ServiceError
from app.services.players import clean_name
from tests.factories import (
    TEST_SECRET_KEY,
    ProtocolClient,
    assert_refused,
    browser,
    create_game,
    game_summary,
    lobby_picture,
    player,
    serve,
    signed_session,
    socket_seat,
    with_session_cookie,
)

TIMEOUT = 10.0


def _me(client: TestClient) -> dict[str, Any] | None:
    response = client.get("/api/me")
    if response.status_code == 401:
        assert_refused(response, 401, "no_player")
        return None
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _names(client: TestClient, game_id: str) -> list[str | None]:
    return [seat["name"] for seat in game_summary(client, game_id)["seats"]]


# ---------------------------------------------------------------------- /api/me

def test_a_name_makes_a_player_whom_the_session_remembers(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        assert _me(client) is None
        response = client.put("/api/me", json={"name": "  Ann   of  Green Gables "})
        assert response.status_code == 200, response.text
        ann = response.json()
        assert set(ann) == {"player_id", "name", "username"} and ann["username"] is None
        assert ann["name"] == "Ann of Green Gables"
        cookie = response.headers["set-cookie"].lower()
        assert cookie.startswith("duel_session=")
        assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
        # The cookie holds the player's id and the session's own (logging out ends it),
        # nothing else (it is signed, not secret).
        payload = client.cookies["duel_session"].split(".")[0]
        assert json.loads(base64.b64decode(payload)) == {"player": ann["player_id"],
                                                         "sid": ANY}
        assert _me(client) == ann

        # Another tab of the browser is the same player; another browser is nobody yet.
        assert _me(client) == ann
        assert _me(browser(client)) is None

        renamed = player(client, "Annie")
        assert renamed == {"player_id": ann["player_id"], "name": "Annie", "username": None}
        assert _me(client) == renamed

        forget = client.delete("/api/me")
        assert forget.status_code == 204
        assert _me(client) is None
        again = player(client, "Ann")
        assert again["player_id"] != ann["player_id"], "a forgotten session came back"


def test_a_visit_renews_the_cookie_once_a_day(make_app: Callable[..., FastAPI]) -> None:
    """The cookie's age counts from the last visit, not from the day the name was picked;
    it is sent again only once a day."""
    with serve(make_app()) as client:
        player(client, "Ann")
        first = client.get("/api/me")
        assert "max-age=" in first.headers["set-cookie"].lower()
        assert "set-cookie" not in client.get("/api/me").headers, "renewed twice in a day"
        nobody = browser(client).get("/api/me")
        assert nobody.status_code == 401 and "set-cookie" not in nobody.headers


def test_the_cookie_is_secure_when_the_site_is_https(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(public_url="https://duel.example")) as client:
        response = client.put("/api/me", json={"name": "Ann"})
        assert response.status_code == 200
        assert "; secure" in response.headers["set-cookie"].lower()


def test_bad_names_are_refused_and_change_nothing(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        nobody = browser(client)
        bad = ["", "   ", "x" * 41, "Ann\x00", "Ann\x07Bob", "\u202eAnn", "Ann\x1b[31m"]
        for name in bad:
            response = nobody.put("/api/me", json={"name": name})
            assert response.status_code == 422, (name, response.text)
            assert response.json()["error"]["code"] in ("bad_name", "invalid_request"), name
            if name.strip():
                assert response.json()["error"]["code"] == "bad_name", name
            assert "set-cookie" not in response.headers, name
        assert _me(nobody) is None

        ann = player(client, "Ann")
        for name in bad:
            assert client.put("/api/me", json={"name": name}).status_code == 422, name
        assert_refused(client.put("/api/me", json={"name": "x" * 101}), 422, "invalid_request")
        assert_refused(client.put("/api/me", json={}), 422, "invalid_request")
        assert_refused(client.put("/api/me", json={"name": 7}), 422, "invalid_request")
        assert _me(client) == ann
        longest = "x" * 40
        assert player(client, longest)["name"] == longest
        # Joiners are part of a name (an emoji sequence, some scripts' letters).
        joined = "Zoë 👩\u200d💻 \u0915\u094d\u200d\u0937"
        assert player(client, joined)["name"] == joined

        # The names given when creating or joining a game are held to the same rules.
        assert_refused(client.post("/api/games", json={"name": "   "}), 422, "bad_name")
        assert_refused(client.post("/api/games", json={"name": "Bo\x00"}), 422, "bad_name")
        created = create_game(client, name="  Ann  Lee ")
        assert_refused(nobody.post(f"/api/games/{created['game_id']}/join",
                                   json={"invite_code": created["invite_code"], "name": "\x7f"}),
                       422, "bad_name")
        assert game_summary(client, created["game_id"])["status"] == "waiting"
        assert _names(client, created["game_id"]) == ["Ann Lee", None]


_NAMES = st.text(st.characters(codec=None, exclude_categories=()), max_size=45) | st.builds(
    lambda pad, name: pad + name + pad, st.sampled_from(["", " ", "\t", "\u3000", "\x85"]),
    st.text(st.sampled_from("ab \u200d\u202e\x00\ufeff\U000f0000\U0001fae8\ud800"),
            max_size=42))


@pytest.mark.hypothesis
@settings(max_examples=500, deadline=None)
@given(_NAMES)
def test_the_schema_says_which_names_the_server_takes(name: str) -> None:
    """The OpenAPI's name (its pattern and length, ``name_schema``) and the server's rule
    (``clean_name``) take the same names."""
    schema: dict[str, Any] = {}
    name_schema(schema)
    by_schema = schema["minLength"] <= len(name) <= schema["maxLength"] \
        and re.search(schema["pattern"], name) is not None
    try:
        clean_name(name)
    except ServiceError as refused:
        assert refused.code == "bad_name"
        assert not by_schema, (name, refused.params)
    else:
        assert by_schema, name


# ---------------------------------------------------------------------- forged sessions

def test_a_forged_or_tampered_cookie_is_no_session(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        ann = player(client, "Ann")
        real = client.cookies["duel_session"]
        game = create_game(client, listed=True)
        game_id = game["game_id"]

        payload, stamp, signature = real.split(".")
        flipped = "A" if signature[0] != "A" else "B"
        forgeries = {
            "a tampered signature": f"{payload}.{stamp}.{flipped}{signature[1:]}",
            "a payload without signature": payload,
            "another payload under Ann's signature": ".".join(
                [base64.b64encode(json.dumps({"player": "someone"}).encode()).decode(),
                 stamp, signature]),
            "signed with another key": signed_session({"player": ann["player_id"]},
                                                      "not-" + TEST_SECRET_KEY),
            "not even the format": "garbage",
        }
        # The forging method itself is sound: with the server's key the cookie is Ann's.
        control = with_session_cookie(browser(client), signed_session({"player": ann["player_id"]}))
        assert _me(control) == ann

        for what, value in forgeries.items():
            eve = with_session_cookie(browser(client), value)
            assert _me(eve) is None, what
            # No socket seat either: the forged session watches, as anyone may.
            assert socket_seat(eve, game_id) is None, what
            # Picking a name makes a new player; Ann stays as she was.
            mallory = eve.put("/api/me", json={"name": "Mallory"})
            assert mallory.status_code == 200, (what, mallory.text)
            assert mallory.json()["player_id"] != ann["player_id"], what
            assert _me(client) == ann, what

        # A forged session does not join as Ann (which would be refused as her own game):
        # it joins as someone else.
        eve = with_session_cookie(browser(client), forgeries["signed with another key"])
        joined = eve.post(f"/api/games/{game_id}/join", json={})
        assert joined.status_code == 200, joined.text
        assert _names(client, game_id) == ["Ann", None]
        assert socket_seat(client, game_id) == 0


def test_a_session_signed_with_another_secret_key_is_refused(
        make_app: Callable[..., FastAPI]) -> None:
    """Sessions made under one DUEL_SECRET_KEY are no sessions under another (a new key
    logs everyone out, and a key of another site opens nothing here)."""
    with serve(make_app()) as client:
        ann = player(client, "Ann")
        cookie = client.cookies["duel_session"]
        game = create_game(client)
    with serve(make_app(secret_key="another-secret")) as client:
        stranger = with_session_cookie(client, cookie)
        assert _me(stranger) is None
        assert lobby_picture(stranger)["player"] is None
        assert socket_seat(stranger, game["game_id"]) is None
        assert stranger.put("/api/me", json={"name": "Ann"}).json()["player_id"] \
            != ann["player_id"]
    with serve(make_app()) as client:  # the right key still reads it
        assert _me(with_session_cookie(client, cookie)) == ann


# ---------------------------------------------------------------------- seats of a player

def test_creating_and_joining_put_the_player_in_the_seat(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as ann:
        player(ann, "Ann")
        bob = browser(ann)
        player(bob, "Bob")
        game = create_game(ann)
        assert _names(ann, game["game_id"]) == ["Ann", None]
        joined = bob.post(f"/api/games/{game['game_id']}/join",
                          json={"invite_code": game["invite_code"]})
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == 1
        assert _names(ann, game["game_id"]) == ["Ann", "Bob"]

        # A name given for the game wins over the player's own.
        other = create_game(ann, name="Captain")
        bob.post(f"/api/games/{other['game_id']}/join",
                 json={"invite_code": other["invite_code"], "name": "Robert"})
        assert _names(ann, other["game_id"]) == ["Captain", "Robert"]
        # The seats are still theirs.
        assert socket_seat(ann, other["game_id"]) == 0
        assert socket_seat(bob, other["game_id"]) == 1


def test_joining_ones_own_game_is_refused(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as ann:
        player(ann, "Ann")
        for listed in (False, True):
            game = create_game(ann, listed=listed)
            game_id = game["game_id"]
            # From the same tab, or another tab of the browser, with the code or (listed)
            # without it.
            for tab in (ann, ann):
                assert_refused(tab.post(f"/api/games/{game_id}/join",
                                        json={"invite_code": game["invite_code"]}),
                               409, "own_game")
            if listed:
                assert_refused(ann.post(f"/api/games/{game_id}/join", json={}), 409, "own_game")
            assert game_summary(ann, game_id)["status"] == "waiting"
            # Anyone else may still take the seat.
            other = browser(ann)
            assert other.post(f"/api/games/{game_id}/join",
                              json={"invite_code": game["invite_code"]}).status_code == 200


def test_the_session_opens_the_seat_on_the_game_socket(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as ann:
        player(ann, "Ann")
        bob, carol, nobody = browser(ann), browser(ann), browser(ann)
        player(bob, "Bob")
        player(carol, "Carol")
        game = create_game(ann, listed=True, first_player="creator")
        game_id = game["game_id"]
        assert bob.post(f"/api/games/{game_id}/join", json={}).status_code == 200

        first_tab = ProtocolClient(ann, game_id, timeout=TIMEOUT)
        second_tab = ProtocolClient(ann, game_id, timeout=TIMEOUT)
        bobs = ProtocolClient(bob, game_id, timeout=TIMEOUT)
        carols = ProtocolClient(carol, game_id, timeout=TIMEOUT)
        nobodys = ProtocolClient(nobody, game_id, timeout=TIMEOUT)
        welcomes = [socket.join() for socket in (first_tab, second_tab, bobs, carols, nobodys)]
        assert [w["type"] for w in welcomes] == ["welcome"] * 5, welcomes
        assert [w["seat"] for w in welcomes] == [0, 0, 1, None, None]
        assert "legal_actions" in welcomes[0]["view"], "seat 0 is to act and sees its moves"
        assert "legal_actions" not in welcomes[3]["view"]
        assert nobodys.barrier()[-1] == {"type": "presence", "seats": [True, True],
                                         "spectators": 2}

        # The second tab plays for seat 0; everyone hears it, the first tab too.
        move = welcomes[1]["view"]["legal_actions"][0]["notation"]
        ack = second_tab.act(move, 0)
        assert ack["type"] == "ack" and ack["version"] == 1, ack
        for socket in (first_tab, bobs, carols, nobodys):
            update = socket.receive_until("update")
            assert (update["version"], update["seat"], update["notation"]) == (1, 0, move)
        # A spectator's session cannot act; the seat's token still works elsewhere.
        refused = carols.act(move, 1)
        assert refused["type"] == "error" and refused["code"] == "spectator", refused
        with ProtocolClient(nobody, game_id, timeout=TIMEOUT) as with_token:
            assert with_token.join(0, game["token"])["seat"] == 0
        for socket in (first_tab, second_tab, bobs, carols, nobodys):
            socket.close()


def test_a_listed_game_is_joined_without_its_code_an_unlisted_one_is_not(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as ann:
        player(ann, "Ann")
        bob = browser(ann)
        player(bob, "Bob")

        unlisted = create_game(ann)
        path = f"/api/games/{unlisted['game_id']}/join"
        assert_refused(bob.post(path, json={}), 403, "bad_invite")
        assert_refused(bob.post(path, json={"invite_code": "not-the-code"}), 403, "bad_invite")
        assert game_summary(ann, unlisted["game_id"])["status"] == "waiting"
        assert bob.post(path, json={"invite_code": unlisted["invite_code"]}).status_code == 200

        listed = create_game(ann, listed=True)
        path = f"/api/games/{listed['game_id']}/join"
        assert_refused(bob.post(path, json={"invite_code": "not-the-code"}), 403, "bad_invite")
        joined = bob.post(path, json={})
        assert joined.status_code == 200, joined.text
        assert game_summary(ann, listed["game_id"])["status"] == "active"
        assert _names(ann, listed["game_id"]) == ["Ann", "Bob"]
        # Once both seats are taken, the listing lets nobody else in.
        assert_refused(browser(ann).post(path, json={}), 409, "game_full")
