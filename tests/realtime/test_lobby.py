"""The lobby (docs/lobby.md, "The lobby"): ``GET /api/lobby`` and the socket ``/ws/lobby``,
which sends the picture at once and again whenever it changes.

Every test runs on SQLite and on PostgreSQL (the ``make_app`` fixture)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.websockets import WebSocketDisconnect

from tests.factories import (
    LobbyClient,
    ProtocolClient,
    admin_abort,
    browser,
    create_game,
    entry,
    game_summary,
    lobby_picture,
    make_move,
    new_game,
    play_out,
    player,
    serve,
    server_game,
    strings_in,
)
from tests.realtime.interleaving import Gate, manual_clock

TIMEOUT = 10.0
DEBOUNCE = 0.01
ENTRY_KEYS = {"game_id", "status", "origin", "options", "version", "to_act", "winner",
              "victory", "time_control", "rated", "created_at", "updated_at", "seats"}


def _ids(picture: dict[str, Any], where: str) -> list[str]:
    return [e["game_id"] for e in picture[where]]



# ---------------------------------------------------------------------- GET /api/lobby

def test_the_lobby_lists_open_live_and_own_games(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(lobby_debounce=DEBOUNCE)) as ann:
        bob, carol, nobody = browser(ann), browser(ann), browser(ann)
        ids = {"ann": player(ann, "Ann")["player_id"], "bob": player(bob, "Bob")["player_id"],
               "carol": player(carol, "Carol")["player_id"]}

        older_open = create_game(ann, listed=True, wonder_selection="first_game")
        newer_open = create_game(ann, listed=True)
        live = new_game(ann, joiner=bob, first_player="creator", listed=True)[0]["game_id"]
        invite_waiting = create_game(ann)
        private = new_game(ann, joiner=bob, first_player="creator")[0]["game_id"]
        secrets = {older_open["token"], older_open["invite_code"], newer_open["token"],
                   invite_waiting["token"], invite_waiting["invite_code"]}

        anonymous = lobby_picture(nobody)
        assert anonymous == {"player": None, "open": anonymous["open"],
                             "live": anonymous["live"], "mine": []}
        # Invite-only games, waiting or playing, are shown to no one but their players.
        assert _ids(anonymous, "open") == [newer_open["game_id"], older_open["game_id"]]
        assert _ids(anonymous, "live") == [live]
        for where in ("open", "live"):
            for item in anonymous[where]:
                assert set(item) == ENTRY_KEYS, item
        waiting = entry(anonymous, "open", older_open["game_id"])
        assert waiting is not None
        assert waiting["status"] == "waiting" and waiting["origin"] == "lobby"
        assert waiting["options"] == {"wonder_selection": "first_game", "first_player": None}
        assert (waiting["version"], waiting["to_act"], waiting["winner"],
                waiting["victory"]) == (0, None, None, None)
        assert waiting["seats"] == [{"seat": 0, "taken": True, "name": "Ann", "computer": None},
                                    {"seat": 1, "taken": False, "name": None,
                                     "computer": None}]
        playing = entry(anonymous, "live", live)
        assert playing is not None
        assert playing["status"] == "active" and playing["to_act"] == 0
        assert [s["name"] for s in playing["seats"]] == ["Ann", "Bob"]

        # Carol sees the same public lists, herself, and no games of her own.
        carols = lobby_picture(carol)
        assert carols["player"] == {"player_id": ids["carol"], "name": "Carol"}
        assert (carols["open"], carols["live"], carols["mine"]) == (
            anonymous["open"], anonymous["live"], [])

        # Ann's own games: all five, each with her seat; the public lists are unchanged.
        anns = lobby_picture(ann)
        assert (anns["open"], anns["live"]) == (anonymous["open"], anonymous["live"])
        assert sorted(_ids(anns, "mine")) == sorted(
            [older_open["game_id"], newer_open["game_id"], live, invite_waiting["game_id"],
             private])
        for item in anns["mine"]:
            assert set(item) == {*ENTRY_KEYS, "my_seat"} and item["my_seat"] == 0, item
        bobs = lobby_picture(bob)
        assert sorted(_ids(bobs, "mine")) == sorted([live, private])
        assert {item["my_seat"] for item in bobs["mine"]} == {1}

        # No player's id, seat token or invite code is in anything another one is shown.
        for viewer, picture in (("nobody", anonymous), ("carol", carols), ("ann", anns),
                                ("bob", bobs)):
            shown = strings_in(picture)
            others = {pid for name, pid in ids.items() if name != viewer}
            assert not shown & (others | secrets), viewer


def test_own_games_list_the_unfinished_first(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(lobby_debounce=DEBOUNCE)) as ann:
        bob = browser(ann)
        player(ann, "Ann")
        player(bob, "Bob")
        unfinished = new_game(ann, joiner=bob, first_player="creator")[0]["game_id"]
        waiting = create_game(ann)["game_id"]
        finished = new_game(bob, joiner=ann, first_player="creator")[0]["game_id"]
        play_out(ann, finished)
        aborted = new_game(ann, joiner=bob, first_player="creator")[0]["game_id"]
        admin_abort(ann, aborted)
        mine = lobby_picture(ann)["mine"]
        assert _ids({"mine": mine}, "mine")[:2] == [waiting, unfinished]
        assert sorted(_ids({"mine": mine}, "mine")[2:]) == sorted([finished, aborted])
        done = entry({"mine": mine}, "mine", finished)
        assert done is not None
        assert done["status"] == "finished" and done["my_seat"] == 1 and done["to_act"] is None
        assert done["victory"] in ("civilian", "military", "science")
        assert entry({"mine": mine}, "mine", aborted)["status"] == "aborted"  # type: ignore[index]


# ---------------------------------------------------------------------- the lobby socket

def test_the_socket_sends_the_picture_at_once(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(lobby_debounce=DEBOUNCE)
    manual_clock(app)  # never advanced: the updates for these games stay pending
    with serve(app) as ann:
        player(ann, "Ann")
        game = create_game(ann, listed=True)
        mine = create_game(ann)
        for client in (ann, browser(ann)):
            with LobbyClient(client, timeout=TIMEOUT) as socket:
                picture = socket.receive()
                assert picture["type"] == "lobby"
                # The same picture as over HTTP.
                assert {k: v for k, v in picture.items() if k != "type"} == lobby_picture(client)
                assert _ids(picture, "open") == [game["game_id"]]
                if client is ann:
                    assert sorted(_ids(picture, "mine")) == sorted(
                        [game["game_id"], mine["game_id"]])
                socket.assert_nothing_queued()


def test_the_socket_follows_listed_games(make_app: Callable[..., FastAPI]) -> None:
    """Created, joined, finished, aborted: every socket hears of it, with a player
    session or without."""
    with serve(make_app(lobby_debounce=DEBOUNCE)) as ann:
        bob, carol, nobody = browser(ann), browser(ann), browser(ann)
        player(ann, "Ann")
        player(bob, "Bob")
        player(carol, "Carol")
        watchers = [LobbyClient(carol, timeout=TIMEOUT), LobbyClient(nobody, timeout=TIMEOUT)]
        for socket in watchers:
            socket.receive()

        game_id = create_game(ann, listed=True)["game_id"]
        for socket in watchers:
            socket.wait_for(lambda p: entry(p, "open", game_id) is not None)
        bob.post(f"/api/games/{game_id}/join", json={})
        for socket in watchers:
            picture = socket.wait_for(lambda p: entry(p, "live", game_id) is not None)
            assert entry(picture, "open", game_id) is None
            assert [s["name"] for s in entry(picture, "live", game_id)["seats"]] == [  # type: ignore[index]
                "Ann", "Bob"]

        last = play_out(ann, game_id, keep=1)
        [(_, action)] = last
        make_move(ann, game_id, action)
        for socket in watchers:
            picture = socket.wait_for(lambda p: entry(p, "live", game_id) is None)
            assert entry(picture, "open", game_id) is None
        summary = game_summary(ann, game_id)
        assert summary["status"] == "finished"

        for waiting in (True, False):
            doomed = create_game(ann, listed=True)["game_id"]
            if not waiting:
                bob.post(f"/api/games/{doomed}/join", json={})
            where = "open" if waiting else "live"
            for socket in watchers:
                socket.wait_for(lambda p, d=doomed, w=where: entry(p, w, d) is not None)
            admin_abort(ann, doomed)
            for socket in watchers:
                socket.wait_for(lambda p, d=doomed, w=where: entry(p, w, d) is None)
        for socket in watchers:
            socket.close()


def test_a_move_in_ones_own_game_updates_mine(make_app: Callable[..., FastAPI]) -> None:
    """The players hear of every move of their games, listed or not; nobody else hears of
    a game that is not listed."""
    with serve(make_app(lobby_debounce=DEBOUNCE)) as ann:
        bob, carol = browser(ann), browser(ann)
        player(ann, "Ann")
        player(bob, "Bob")
        player(carol, "Carol")
        sockets = {"ann": LobbyClient(ann, timeout=TIMEOUT),
                   "bob": LobbyClient(bob, timeout=TIMEOUT),
                   "carol": LobbyClient(carol, timeout=TIMEOUT)}
        for socket in sockets.values():
            socket.receive()

        game_id = new_game(ann, joiner=bob, first_player="creator")[0]["game_id"]
        for name in ("ann", "bob"):
            picture = sockets[name].wait_for(
                lambda p: (entry(p, "mine", game_id) or {}).get("status") == "active")
            assert entry(picture, "mine", game_id)["to_act"] == 0  # type: ignore[index]
        for version in (1, 2):
            assert make_move(ann, game_id) == version
            for name, seat in (("ann", 0), ("bob", 1)):
                picture = sockets[name].wait_for(
                    lambda p, v=version: entry(p, "mine", game_id)["version"] == v)  # type: ignore[index]
                mine = entry(picture, "mine", game_id)
                assert mine is not None and mine["my_seat"] == seat
                assert mine["to_act"] == server_game(ann, game_id)[0].to_act
                assert picture["open"] == [] and picture["live"] == []
        # Carol was told nothing of the game: not its creation, its start or its moves.
        sockets["carol"].assert_nothing_queued()
        assert game_id not in str(sockets["carol"].inbox)
        for socket in sockets.values():
            socket.close()


def test_changes_close_together_come_as_one_message(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(lobby_debounce=1.0)
    clock = manual_clock(app)
    with serve(app) as ann:
        socket = LobbyClient(browser(ann), timeout=TIMEOUT)
        socket.receive()
        games = [create_game(ann, listed=True)["game_id"] for _ in range(3)]
        clock.wait_for_sleepers(seconds=1.0)  # the first change waits out the debounce
        clock.advance(1.0)
        picture = socket.receive()
        assert picture["type"] == "lobby", picture
        assert sorted(_ids(picture, "open")) == sorted(games)
        socket.assert_nothing_queued()
        socket.close()


def test_a_change_during_an_update_is_not_lost(make_app: Callable[..., FastAPI],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A game created while the lobby reads the lists for the previous change must still
    reach the sockets (and not wait for some later change)."""
    app = make_app(lobby_debounce=DEBOUNCE)
    with serve(app) as ann:
        read = app.state.lobby.public
        gate = Gate(ann, passing=1)  # the socket's first picture passes

        async def slow_read() -> Any:
            lists = await read()
            await gate.hold()  # a slow database: the lists grow old before they are sent
            return lists

        monkeypatch.setattr(app.state.lobby, "public", slow_read)
        with LobbyClient(browser(ann), timeout=TIMEOUT) as socket:
            socket.receive()
            first = create_game(ann, listed=True)["game_id"]
            gate.wait_reached()  # the update for the first game has read the lists
            second = create_game(ann, listed=True)["game_id"]
            gate.open()
            picture = socket.wait_for(lambda p: entry(p, "open", second) is not None)
            assert entry(picture, "open", first) is not None


def test_the_first_picture_is_never_sent_after_a_newer_one(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket's first picture takes long to read; a game created meanwhile is sent in
    an update. The socket must end up showing the game, not the older first picture."""
    app = make_app(lobby_debounce=DEBOUNCE)
    with serve(app) as ann:
        read = app.state.lobby.public
        gate = Gate(ann)

        async def first_read_slow() -> Any:
            lists = await read()
            await gate.hold()
            return lists

        monkeypatch.setattr(app.state.lobby, "public", first_read_slow)
        with LobbyClient(browser(ann), timeout=TIMEOUT) as socket:
            gate.wait_reached()  # the first picture is read, not sent
            game_id = create_game(ann, listed=True)["game_id"]
            gate.open()
            socket.wait_for(lambda p: entry(p, "open", game_id) is not None)
            # The socket reads messages once its first picture is sent: whatever was sent
            # before the pong, the first picture included, is in now.
            socket.barrier()
            assert socket.lobby is not None
            assert entry(socket.lobby, "open", game_id) is not None, \
                "the socket shows a lobby older than one it was already sent"


# ---------------------------------------------------------------------- refusals, pings

def test_unreadable_lobby_messages_are_refused_and_the_socket_stays(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(lobby_debounce=DEBOUNCE)) as ann:
        player(ann, "Ann")
        with LobbyClient(ann, timeout=TIMEOUT) as socket:
            socket.receive()
            cases: list[tuple[Any, str]] = [
                ("not json", "malformed"),
                ("[1, 2]", "malformed"),
                ('"play"', "malformed"),
                ("[" * 5000 + "]" * 5000, "malformed"),
                ('{"type": "ping", "n": ' + "9" * 5000 + "}", "malformed"),
                ('{"type": "play", "extra": 1}', "malformed"),
                ('{"type": "cancel", "type2": null}', "malformed"),
                ('{"no_type": 1}', "unknown_type"),
                ('{"type": "join"}', "unknown_type"),
                ('{"type": "rematch"}', "unknown_type"),
                ('{"type": "PLAY"}', "unknown_type"),
                ('{"type": "play", "pad": "' + "x" * 17_000 + '"}', "too_large"),
                (b'{"type": "play"}', "malformed"),
            ]
            for payload, code in cases:
                if isinstance(payload, bytes):
                    socket.ws.send_bytes(payload)
                else:
                    socket.ws.send_text(payload)
                error = socket.receive()
                assert error["type"] == "error" and error["code"] == code, (payload[:40], error)
                assert error["message"], error
                # Still open, still answering, still not queued.
                assert socket.barrier() == [], payload[:40]
            socket.send({"type": "play"})
            assert socket.receive() == {"type": "queue", "state": "waiting"}
            socket.send({"type": "cancel"})
            assert socket.receive() == {"type": "queue", "state": "idle"}


def test_the_game_socket_refuses_deep_nesting_too(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        game = create_game(client)
        with ProtocolClient(client, game["game_id"], timeout=TIMEOUT) as socket:
            socket.ws.send_text("[" * 5000 + "]" * 5000)
            error = socket.receive()
            assert error["type"] == "error" and error["code"] == "malformed", error
            assert socket.join(0, game["token"])["type"] == "welcome"


def test_lobby_pings(make_app: Callable[..., FastAPI]) -> None:
    """As on the game socket: pinged every interval, closed after the timeout of silence;
    the clock is moved by the test (tests/realtime/interleaving.py)."""
    app = make_app(heartbeat_interval=1.0, heartbeat_timeout=3.0)
    clock = manual_clock(app)
    with serve(app) as client:
        with LobbyClient(client, timeout=TIMEOUT) as lively:
            assert lively.receive()["type"] == "lobby"
            lively.send({"type": "ping"})
            assert lively.receive() == {"type": "pong"}
            for _ in range(10):  # over three times the timeout, answering pings
                clock.advance(1.0)
                assert lively.barrier() == []
            assert [m["type"] for m in lively.inbox[2:]] == ["ping", "pong"] * 10
        with LobbyClient(client, timeout=TIMEOUT) as silent:
            assert silent.receive_json(timeout=TIMEOUT)["type"] == "lobby"  # heard now
            for _ in range(3):
                clock.advance(1.0)
                assert silent.receive_json(timeout=TIMEOUT) == {"type": "ping"}
            clock.advance(1.0)
            error = silent.receive_json(timeout=TIMEOUT)
            assert error["type"] == "error" and error["code"] == "timeout", error
            with pytest.raises(WebSocketDisconnect):
                silent.receive_json(timeout=TIMEOUT)
