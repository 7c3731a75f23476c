"""Every limit is reached and refused with its code (docs/security.md): the password
throttle (shared by processes, behind a proxy, never locking out the owner's browser),
games created and joined per hour, sockets per address, spectators per game,
a socket's pace; and presence stays linear in the number of watchers."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect

from app.api.clients import client_address
from app.config import parse_networks
from app.services.limits import Attempt, address_key
from tests.factories import (
    ManualWall,
    ProtocolClient,
    admin_login,
    assert_refused,
    browser,
    counting_still,
    create_game,
    join_game,
    new_game,
    ok,
    serve,
)
from tests.realtime.interleaving import manual_clock

PASSWORD = "correct horse"
TIMEOUT = 10.0
PROXY = "10.0.0.2"


def _login(client: TestClient, password: str, forwarded: str | None = None) -> Any:
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    return client.post("/admin/login", data={"password": password, "next": "/admin"},
                       headers=headers, follow_redirects=False)


def _admin_app(make_app: Callable[..., FastAPI], wall: ManualWall | None = None,
               **settings: Any) -> FastAPI:
    # The wall (the rate windows' clock) moves by the test's hand only.
    return counting_still(make_app(admin_password=PASSWORD, server_heartbeat=3600, **settings),
                          wall)


# ------------------------------------------------------------------------ the client's address
def _connection(peer: str, forwarded: list[str]) -> HTTPConnection:
    headers = [(b"x-forwarded-for", value.encode()) for value in forwarded]
    return HTTPConnection({"type": "http", "client": (peer, 1), "headers": headers})


def test_a_forwarded_address_is_believed_from_a_configured_proxy_only() -> None:
    proxies = parse_networks("10.0.0.0/8, 192.168.1.7")
    assert client_address(_connection("203.0.113.5", ["1.2.3.4"]), proxies) == "203.0.113.5"
    assert client_address(_connection("10.0.0.2", ["1.2.3.4"]), proxies) == "1.2.3.4"
    # What the client wrote before the proxy's hop is never believed.
    assert client_address(_connection("10.0.0.2", ["6.6.6.6, 1.2.3.4"]), proxies) == "1.2.3.4"
    assert client_address(_connection("10.0.0.2", ["6.6.6.6", "1.2.3.4, 192.168.1.7"]),
                          proxies) == "1.2.3.4"
    assert client_address(_connection("10.0.0.2", []), proxies) == "10.0.0.2"
    assert client_address(_connection("10.0.0.2", ["1.2.3.4"]), ()) == "10.0.0.2"
    # Ports and brackets as proxies write them; a hop that is no address stops the walk
    # at the last proxy (it cannot name an "address" of its choosing).
    assert client_address(_connection("10.0.0.2", ["1.2.3.4:5678"]), proxies) == "1.2.3.4"
    assert client_address(_connection("10.0.0.2", ["[2001:db8::1]:443"]), proxies) == \
        "2001:db8::1"
    assert client_address(_connection("10.0.0.2", ["x" * 200]), proxies) == "10.0.0.2"
    assert client_address(_connection("10.0.0.2", ["1.2.3.4, junk, 10.0.0.9"]),
                          proxies) == "10.0.0.9"


def test_an_ipv6_subscriber_is_counted_as_one_address() -> None:
    assert address_key("2001:db8:1:2::1") == address_key("2001:db8:1:2:ffff::9") == \
        "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:198.51.100.7") == address_key("198.51.100.7") == "198.51.100.7"


def test_a_proxy_setting_that_is_not_addresses_stops_the_server(
        make_app: Callable[..., FastAPI]) -> None:
    with pytest.raises(ValueError, match="trusted_proxies"):
        make_app(trusted_proxies="10.0.0.0/8, proxy.local")


# ------------------------------------------------------------------------ the password throttle
def test_wrong_passwords_from_one_address_wait_out_the_window(
        make_app: Callable[..., FastAPI]) -> None:
    app = _admin_app(make_app)
    with serve(app) as client:
        for _ in range(5):
            assert _login(client, "guess").status_code == 401
        # Not even the right password is checked now, from this address.
        throttled = _login(client, PASSWORD)
        assert throttled.status_code == 429 and "try again in" in throttled.text
        # The page says when, and so does the header a client reads (every 429 has it).
        assert 0 < int(throttled.headers["retry-after"]) <= 15 * 60
        app.state.wall.offset += timedelta(minutes=15)
        assert _login(client, PASSWORD).status_code == 303


def test_a_forged_forwarded_for_does_not_make_new_addresses(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(_admin_app(make_app)) as client:  # no proxy configured: the header is ignored
        for n in range(5):
            assert _login(client, "guess", forwarded=f"198.51.100.{n}").status_code == 401
        assert _login(client, "guess", forwarded="198.51.100.99").status_code == 429


def test_behind_a_proxy_each_client_address_counts_for_itself(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(_admin_app(make_app, trusted_proxies=PROXY)) as client:
        proxy = browser(client, PROXY)
        for _ in range(5):
            assert _login(proxy, "guess", forwarded="198.51.100.1").status_code == 401
        assert _login(proxy, "guess", forwarded="198.51.100.1").status_code == 429
        # Another client, through the same proxy: its own count.
        assert _login(proxy, PASSWORD, forwarded="198.51.100.2").status_code == 303


def test_a_guesser_never_locks_out_the_owners_browser(make_app: Callable[..., FastAPI]) -> None:
    with serve(_admin_app(make_app, trusted_proxies=PROXY,
                          login_attempts_per_account=12)) as client:
        owner = browser(client, PROXY)
        assert _login(owner, PASSWORD, forwarded="192.0.2.10").status_code == 303
        owner.post("/admin/logout", follow_redirects=False)
        # A guesser spread over many addresses, the owner's among them.
        guesser = browser(client, PROXY)
        refused = 0
        for n in range(40):
            address = "192.0.2.10" if n % 4 == 0 else f"198.51.100.{n}"
            status = _login(guesser, "guess", forwarded=address).status_code
            assert status in (401, 429)
            refused += status == 429
        assert refused > 0, "the guesses met the limit for browsers new to the account"
        assert _login(guesser, PASSWORD, forwarded="198.51.100.200").status_code == 429
        # The owner's browser, at its usual address, logs in at once.
        assert _login(owner, PASSWORD, forwarded="192.0.2.10").status_code == 303
        assert owner.get("/admin/api/games").status_code == 200


def test_guesses_sent_together_get_no_more_checks(make_app: Callable[..., FastAPI]) -> None:
    app = _admin_app(make_app)
    with serve(app) as client:
        async def guesses() -> list[Any]:
            admin = app.state.admin
            return await asyncio.gather(
                *(admin.login("guess", Attempt("198.51.100.1")) for _ in range(20)),
                return_exceptions=True)

        outcomes = Counter(getattr(outcome, "code", outcome)
                           for outcome in client.portal.call(guesses))
        assert outcomes == {"bad_password": 5, "too_many_attempts": 15}


def test_the_throttle_counts_over_every_process(make_app: Callable[..., FastAPI]) -> None:
    wall = ManualWall()
    first, second = _admin_app(make_app, wall), _admin_app(make_app, wall)
    with serve(first) as a, serve(second) as b:
        for client in (a, b, a, b, a):
            assert _login(client, "guess").status_code == 401
        assert _login(b, PASSWORD).status_code == 429
        assert _login(a, PASSWORD).status_code == 429


def test_the_admin_login_page_still_works_as_before(make_app: Callable[..., FastAPI]) -> None:
    with serve(_admin_app(make_app)) as client:
        assert admin_login(client, PASSWORD).status_code == 303
        assert client.get("/admin/api/games").status_code == 200


# ------------------------------------------------------------------------ creating and joining
def test_games_created_per_hour_by_an_address_and_by_a_player(
        make_app: Callable[..., FastAPI]) -> None:
    app = counting_still(make_app(games_per_hour=2, trusted_proxies=PROXY,
                                  server_heartbeat=3600))
    with serve(app) as client:
        proxy = browser(client, PROXY)

        def create(who: TestClient, address: str) -> Any:
            return who.post("/api/games", json={}, headers={"X-Forwarded-For": address})

        for _ in range(2):
            ok(create(proxy, "198.51.100.1"), 201)
        refused = create(proxy, "198.51.100.1")
        error = assert_refused(refused, 429, "too_many_games")
        assert error["params"]["limit"] == 2
        assert int(refused.headers["retry-after"]) == error["params"]["retry_after"] > 0
        ok(create(proxy, "198.51.100.2"), 201)  # another address
        # A player is counted wherever they come from.
        ann = browser(client, PROXY)
        ok(ann.put("/api/me", json={"name": "Ann"}))
        ok(create(ann, "198.51.100.3"), 201)
        ok(create(ann, "198.51.100.4"), 201)
        assert_refused(create(ann, "198.51.100.5"), 429, "too_many_games")
        app.state.wall.offset += timedelta(hours=1)
        ok(create(ann, "198.51.100.5"), 201)


def test_games_joined_per_hour(make_app: Callable[..., FastAPI]) -> None:
    with serve(counting_still(make_app(joins_per_hour=1, games_per_hour=10,
                                       server_heartbeat=3600))) as client:
        joiner = browser(client, "198.51.100.9")
        join_game(joiner, create_game(client))
        created = create_game(client)
        refused = joiner.post(f"/api/games/{created['game_id']}/join",
                              json={"invite_code": created["invite_code"]})
        error = assert_refused(refused, 429, "too_many_joins")
        assert int(refused.headers["retry-after"]) == error["params"]["retry_after"] > 0
        # Nothing changed: the game still waits for its second player.
        assert ok(client.get(f"/api/games/{created['game_id']}"))["status"] == "waiting"


# ------------------------------------------------------------------------ sockets
def _refused_socket(client: TestClient, path: str, code: str) -> dict[str, Any]:
    with client.websocket_connect(path) as ws:
        error: dict[str, Any] = ws.receive_json()
        assert error["type"] == "error" and error["code"] == code, error
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1013
    return error


def test_sockets_per_address(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(sockets_per_address=2)) as client:
        game_id = new_game(client)[0]["game_id"]
        first = ProtocolClient(client, game_id, timeout=TIMEOUT)
        ProtocolClient(client, "", timeout=TIMEOUT, path="/ws/lobby")
        error = _refused_socket(client, f"/ws/games/{game_id}", "too_many_sockets")
        assert error["params"] == {"cause": "address", "limit": 2}
        _refused_socket(client, "/ws/lobby", "too_many_sockets")
        # Another address is not counted with this one.
        other = ProtocolClient(browser(client, "198.51.100.7"), game_id, timeout=TIMEOUT)
        assert other.join()["type"] == "welcome"
        first.close()  # a closed socket frees its place
        assert ProtocolClient(client, game_id, timeout=TIMEOUT).join()["type"] == "welcome"


def test_spectators_per_game_never_keep_a_player_out(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(spectators_per_game=1)) as client:
        created, joined = new_game(client)
        game_id = created["game_id"]
        assert ProtocolClient(client, game_id, timeout=TIMEOUT).join()["type"] == "welcome"
        crowd = ProtocolClient(browser(client, "198.51.100.8"), game_id, timeout=TIMEOUT)
        refused = crowd.join()
        assert refused["code"] == "too_many_spectators" and refused["params"] == {"limit": 1}
        with pytest.raises(WebSocketDisconnect):
            crowd.receive()
        # Seats are no spectators: the players get in, again and again.
        for _ in range(2):
            for seat, token in enumerate((created["token"], joined["token"])):
                player = ProtocolClient(client, game_id, timeout=TIMEOUT)
                assert player.join(seat, token)["type"] == "welcome"


def test_a_socket_that_sends_too_fast_is_refused_until_it_slows_down(
        make_app: Callable[..., FastAPI]) -> None:
    app = make_app(socket_burst=3, socket_rate=2)
    clock = manual_clock(app)
    with serve(app) as client:
        game_id = new_game(client)[0]["game_id"]
        socket = ProtocolClient(client, game_id, timeout=TIMEOUT)
        assert socket.join()["type"] == "welcome"
        socket.barrier()  # a ping: the second message
        socket.barrier()  # the third
        socket.send({"type": "ping"})
        error = socket.receive_until("error")
        assert error["code"] == "too_fast"
        assert error["params"] == {"limit": 2.0, "retry_after": 1}
        clock.advance(0.5)  # one message's worth
        socket.barrier()


# ------------------------------------------------------------------------ presence
def test_presence_stays_linear_in_the_number_of_spectators(
        make_app: Callable[..., FastAPI]) -> None:
    crowd_size = 12
    app = make_app(spectator_presence_seconds=3600)
    with serve(app) as client:
        created, joined = new_game(client)
        game_id = created["game_id"]
        ann = ProtocolClient(client, game_id, timeout=TIMEOUT)
        ann.join(0, created["token"])
        crowd = [ProtocolClient(browser(client, f"198.51.100.{n}"), game_id, timeout=TIMEOUT)
                 for n in range(crowd_size)]
        for spectator in crowd:
            assert spectator.join()["type"] == "welcome"
            last = spectator.receive_until("presence")  # its own, with itself counted
        assert last["spectators"] == crowd_size
        ann.barrier()
        # The player heard each arrival; each spectator, its own arrival only.
        assert [m["spectators"] for m in ann.received("presence")][-crowd_size:] == \
            list(range(1, crowd_size + 1))
        for spectator in crowd:
            spectator.barrier()
            assert len(spectator.received("presence")) == 1
        # Who sits at the table changing reaches everyone at once, with the count.
        bob = ProtocolClient(client, game_id, timeout=TIMEOUT)
        bob.join(1, joined["token"])
        for spectator in crowd:
            seen = spectator.receive_until("presence")
            assert seen == {"type": "presence", "seats": [True, True],
                            "spectators": crowd_size}
