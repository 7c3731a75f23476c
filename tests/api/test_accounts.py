"""Accounts, optional: a guest registers and keeps their games, logs in from another
browser (whose guest games become the account's), is refused a wrong password the same
way as an unknown name, is throttled without the owner's browser being locked out, changes
the password and logs out everywhere (every other browser's session ends, on every
process)."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.factories import (
    SESSION_COOKIE,
    ManualWall,
    ProtocolClient,
    assert_refused,
    browser,
    counting_still,
    new_game,
    ok,
    player,
    serve,
    signed_session,
    with_session_cookie,
)

PASSWORD = "a long enough secret"


def _register(client: TestClient, username: str = "ann", password: str = PASSWORD) -> Any:
    return client.post("/api/account", json={"username": username, "password": password})


def _login(client: TestClient, username: str = "ann", password: str = PASSWORD) -> Any:
    return client.post("/api/login", json={"username": username, "password": password})


def _my_games(client: TestClient) -> set[str]:
    return {entry["game_id"] for entry in ok(client.get("/api/lobby"))["mine"]}


def _app(make_app: Callable[..., FastAPI], wall: ManualWall | None = None,
         **settings: Any) -> FastAPI:
    return counting_still(make_app(server_heartbeat=3600, **settings), wall)


def test_a_guest_registers_and_keeps_their_games(make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:
        ann = browser(client)
        guest = player(ann, "Ann")
        game_id = new_game(ann, joiner=browser(client))[0]["game_id"]
        me = ok(_register(ann, "Ann_1"), 201)
        assert me == {"player_id": guest["player_id"], "name": "Ann", "username": "Ann_1"}
        assert ok(ann.get("/api/me"))["username"] == "Ann_1"
        assert game_id in _my_games(ann)
        # One account per name, whatever its case; one account per browser.
        assert_refused(_register(browser(client), "ann_1"), 409, "username_taken")
        assert_refused(_register(ann, "other"), 409, "already_registered")


def test_what_a_username_and_a_password_must_be(make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:
        for bad in ("ab", "x" * 25, "has space", "é-accent"):
            assert_refused(_register(browser(client), bad), 422, "bad_username")
        short = assert_refused(_register(client, "bob", "1234567"), 422, "weak_password")
        assert short["params"] == {"cause": "short", "min": 8}
        long = assert_refused(_register(client, "bob", "x" * 201), 422, "weak_password")
        assert long["params"] == {"cause": "long", "max": 200}
        # Long enough but guessed at once: a common password, a repeat, a keyboard run,
        # the username itself with a number.
        for guessable in ("aaaaaaaa", " " * 8, "password1", "qwertyuiop", "12345678",
                          "bob12345", "a" * 150):
            refused = assert_refused(_register(client, "bob", guessable), 422, "weak_password")
            assert refused["params"] == {"cause": "common"}, guessable
        # A browser with no player yet becomes one, named after the username.
        assert ok(_register(client, "bob"), 201)["name"] == "bob"


def test_logging_in_elsewhere_brings_the_guest_games_along(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:
        home = browser(client)
        player(home, "Ann")
        ok(_register(home), 201)
        at_home = new_game(home, joiner=browser(client))[0]["game_id"]
        # Another browser, where Ann played as a guest first.
        away = browser(client)
        player(away, "Ann on the train")
        as_guest = new_game(away, joiner=browser(client))[0]["game_id"]
        me = ok(_login(away, "ANN"))
        assert me["username"] == "ann" and me["name"] == "Ann"
        assert _my_games(away) == _my_games(home) == {at_home, as_guest}


def test_a_wrong_password_and_an_unknown_name_get_one_answer(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:
        ok(_register(browser(client)), 201)
        wrong = assert_refused(_login(browser(client), "ann", "not it at all"), 401, "bad_login")
        unknown = assert_refused(_login(browser(client), "nobody"), 401, "bad_login")
        assert wrong == unknown


def test_guesses_are_throttled_and_the_owner_still_gets_in(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app, login_attempts=3)) as client:
        owner = browser(client)
        ok(_register(owner), 201)
        assert owner.delete("/api/me").status_code == 204  # logged out
        guesser = browser(client)
        for _ in range(3):
            assert_refused(_login(guesser, "ann", "a guess of mine"), 401, "bad_login")
        answer = _login(guesser)
        refused = assert_refused(answer, 429, "too_many_attempts")
        assert int(answer.headers["retry-after"]) == refused["params"]["wait"] > 0
        # The owner's browser, from the same address, is counted apart.
        assert ok(_login(owner))["username"] == "ann"


def test_logging_out_ends_that_session_and_its_copies_on_every_process(
        make_app: Callable[..., FastAPI]) -> None:
    first, second = _app(make_app), _app(make_app)
    with serve(first) as a, serve(second) as b:
        laptop, phone, copy, other_process = browser(a), browser(a), browser(a), browser(b)
        ok(_register(laptop), 201)
        ok(_login(phone))
        copy.cookies.update(laptop.cookies)  # a shared computer, a cookie copied or stolen
        other_process.cookies.update(laptop.cookies)
        assert ok(copy.get("/api/me"))["username"] == "ann"
        assert ok(other_process.get("/api/me"))["username"] == "ann"
        assert laptop.delete("/api/me").status_code == 204
        assert_refused(laptop.get("/api/me"), 401, "no_player")
        assert_refused(copy.get("/api/me"), 401, "no_player")  # at once, on this process
        second.state.accounts._known.clear()  # the other process, once it reads again
        assert_refused(other_process.get("/api/me"), 401, "no_player")
        # The account's other browser is still logged in; logging in again makes a new
        # session, which the old copies do not share.
        assert ok(phone.get("/api/me"))["username"] == "ann"
        assert ok(_login(laptop))["username"] == "ann"
        assert ok(laptop.get("/api/me"))["username"] == "ann"
        assert_refused(copy.get("/api/me"), 401, "no_player")


def _session_in(cookie: str) -> dict[str, Any]:
    """What a session cookie holds (signed, not encrypted)."""
    payload = cookie.split(".", maxsplit=1)[0]
    return dict(json.loads(base64.b64decode(payload + "=" * (-len(payload) % 4))))


def test_logging_out_ends_the_copies_of_a_session_older_than_session_ids(
        make_app: Callable[..., FastAPI]) -> None:
    """A login made before sessions had ids: every copy of its cookie is given the same id,
    so logging out with one ends the others."""
    with serve(_app(make_app)) as client:
        laptop, copy = browser(client), browser(client)
        registered = _register(laptop)
        assert registered.status_code == 201
        older = {key: value for key, value in
                 _session_in(registered.cookies[SESSION_COOKIE]).items() if key != "sid"}
        given = []
        for each in (laptop, copy):
            answer = with_session_cookie(each, signed_session(older)).get("/api/me")
            assert ok(answer)["username"] == "ann"
            given.append(_session_in(answer.cookies[SESSION_COOKIE])["sid"])
            with_session_cookie(each, answer.cookies[SESSION_COOKIE])
        assert given[0] == given[1]
        assert laptop.delete("/api/me").status_code == 204
        assert_refused(copy.get("/api/me"), 401, "no_player")


def test_a_guest_forgotten_in_one_browser_is_forgotten_in_its_copies(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:
        ann, copy = browser(client), browser(client)
        player(ann, "Ann")
        ok(ann.put("/api/me", json={"name": "Ann B"}))  # a new name: the same session
        copy.cookies.update(ann.cookies)
        assert ok(copy.get("/api/me"))["name"] == "Ann B"
        assert ann.delete("/api/me").status_code == 204
        assert_refused(copy.get("/api/me"), 401, "no_player")
        # The copy may pick a name: it becomes a new player, not Ann.
        assert ok(copy.put("/api/me", json={"name": "Someone"}))["player_id"] != \
            ok(ann.put("/api/me", json={"name": "Ann"}))["player_id"]


def test_logging_out_everywhere_ends_every_session_on_every_process(
        make_app: Callable[..., FastAPI]) -> None:
    wall = ManualWall()
    first, second = _app(make_app, wall), _app(make_app, wall)
    with serve(first) as a, serve(second) as b:
        laptop, phone = browser(a), browser(b)
        ok(_register(laptop), 201)
        ok(_login(phone))
        assert ok(phone.get("/api/me"))["username"] == "ann"
        assert laptop.post("/api/logout-everywhere", json={}).status_code == 204
        assert_refused(laptop.get("/api/me"), 401, "no_player")
        # The other process reads the account's epoch again (it keeps it a few seconds).
        second.state.accounts._known.clear()
        assert_refused(phone.get("/api/me"), 401, "no_player")
        assert ok(_login(phone))["username"] == "ann"


def test_a_new_password_ends_the_other_sessions(make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:
        laptop, phone = browser(client), browser(client)
        ok(_register(laptop), 201)
        ok(_login(phone))
        changed = laptop.put("/api/account/password",
                             json={"current_password": PASSWORD, "new_password": "another one"})
        assert ok(changed)["username"] == "ann"
        assert ok(laptop.get("/api/me"))["username"] == "ann"  # this session goes on
        assert_refused(phone.get("/api/me"), 401, "no_player")
        assert_refused(_login(phone), 401, "bad_login")
        assert ok(_login(phone, password="another one"))["username"] == "ann"
        wrong = laptop.put("/api/account/password",
                           json={"current_password": "not it", "new_password": "a third one"})
        assert_refused(wrong, 401, "bad_login")
        weak = laptop.put("/api/account/password",
                          json={"current_password": "another one", "new_password": "ann12345"})
        assert assert_refused(weak, 422, "weak_password")["params"] == {"cause": "common"}
        assert ok(_login(phone, password="another one"))["username"] == "ann"  # unchanged
        guest = browser(client)
        player(guest, "Guest")
        assert_refused(guest.put("/api/account/password", json={
            "current_password": PASSWORD, "new_password": "whatever else"}), 401,
            "not_registered")


def test_a_copy_of_the_guest_cookie_does_not_become_the_account(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:
        ann, copy = browser(client), browser(client)
        player(ann, "Ann")
        copy.cookies.update(ann.cookies)  # a shared computer, a cookie copied or planted
        assert ok(copy.get("/api/me"))["name"] == "Ann"
        ok(_register(ann), 201)
        client.app.state.accounts._known.clear()  # any process, however soon
        assert_refused(copy.get("/api/me"), 401, "no_player")
        assert ok(ann.get("/api/me"))["username"] == "ann"


def test_an_open_socket_stops_acting_once_the_account_logged_out_everywhere(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:
        thief, owner = browser(client), browser(client)
        ok(_register(owner), 201)
        ok(_login(thief))
        game_id = new_game(thief, joiner=browser(client))[0]["game_id"]
        socket = ProtocolClient(thief, game_id, timeout=10)
        assert socket.join()["seat"] == 0
        assert owner.post("/api/logout-everywhere", json={}).status_code == 204
        socket.send({"type": "chat_history"})
        assert socket.receive_until("error")["code"] == "session_ended"


def test_one_address_trying_many_accounts_is_throttled(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app, login_attempts=2)) as client:
        guesser = browser(client)
        codes = [_login(guesser, f"name{n}", "a guess of mine").json()["error"]["code"]
                 for n in range(10)]
        assert codes == ["bad_login"] * 8 + ["too_many_attempts"] * 2


def test_accounts_registered_per_address(make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app, accounts_per_hour=2)) as client:
        for n in range(2):
            ok(_register(browser(client), f"user{n}"), 201)
        refused = _register(browser(client), "user9")
        error = assert_refused(refused, 429, "too_many_accounts")
        assert int(refused.headers["retry-after"]) == error["params"]["retry_after"] > 0


def test_logging_out_everywhere_takes_json_only(make_app: Callable[..., FastAPI]) -> None:
    with serve(_app(make_app)) as client:
        ok(_register(client), 201)
        assert client.post("/api/logout-everywhere", data={"x": "1"}).status_code == 422
        assert ok(client.get("/api/me"))["username"] == "ann"
