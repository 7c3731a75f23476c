"""Quick match (docs/lobby.md, "Quick match"): players pressing "play" on the lobby socket
are paired two by two into started games, each once, never with themselves.

Every test runs on SQLite and on PostgreSQL (the ``make_app`` and ``database`` fixtures)."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Game as GameRow
from app.db.models import Seat
from app.db.pubsub import InProcessPubSub
from app.db.session import make_engine, make_sessionmaker
from app.realtime.lobby import QuickMatch
from app.realtime.messages import ServerMessage
from app.services.games import GameService
from app.services.players import PlayerInfo, PlayerService
from app.services.servers import ServerRegistry
from tests.factories import (
    Database,
    LobbyClient,
    ProtocolClient,
    browser,
    entry,
    game_summary,
    lobby_picture,
    player,
    repeatable_seeds,
    serve,
    socket_seat,
)
from tests.realtime.interleaving import manual_clock

TIMEOUT = 10.0
WAITING = {"type": "queue", "state": "waiting"}


def _lobby_socket(client: TestClient) -> LobbyClient:
    socket = LobbyClient(client, timeout=TIMEOUT)
    assert socket.receive()["type"] == "lobby"
    return socket


def _play(socket: LobbyClient) -> dict[str, Any]:
    socket.send({"type": "play"})
    reply = socket.receive()
    assert reply["type"] in ("queue", "matched"), reply
    return reply


def _matched(socket: LobbyClient) -> dict[str, Any]:
    """The socket's ``matched`` message (lobby pictures skipped)."""
    while True:
        message = socket.receive()
        if message["type"] != "lobby":
            assert message["type"] == "matched", message
            return message



# ---------------------------------------------------------------------- over the socket

def test_two_players_pressing_play_are_matched(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(lobby_debounce=0.01)) as ann:
        bob, carol = browser(ann), browser(ann)
        player(ann, "Ann")
        player(bob, "Bob")
        player(carol, "Carol")
        anns, bobs = _lobby_socket(ann), _lobby_socket(bob)

        assert _play(anns) == WAITING
        to_bob = _play(bobs)
        to_ann = _matched(anns)
        game_id = to_ann["game_id"]
        assert to_ann == {"type": "matched", "game_id": game_id, "seat": 0}, "Ann waited longer"
        assert to_bob == {"type": "matched", "game_id": game_id, "seat": 1}

        summary = game_summary(ann, game_id)
        assert summary["status"] == "active" and summary["origin"] == "quick_match"
        assert summary["options"] == {"wonder_selection": "draft", "first_player": None}
        assert [s["name"] for s in summary["seats"]] == ["Ann", "Bob"]
        # Each session opens its own seat; anyone else watches.
        assert socket_seat(ann, game_id) == 0
        assert socket_seat(bob, game_id) == 1
        assert socket_seat(carol, game_id) is None
        with ProtocolClient(ann, game_id, timeout=TIMEOUT) as socket:
            view = socket.join()["view"]
            assert view["phase"] == "draft" and view["to_act"] in (0, 1)

        # The game is theirs in the lobby, and listed for spectators.
        for socket, seat in ((anns, 0), (bobs, 1)):
            picture = socket.wait_for(lambda p: entry(p, "mine", game_id) is not None)
            assert entry(picture, "mine", game_id)["my_seat"] == seat  # type: ignore[index]
        assert entry(lobby_picture(carol), "live", game_id) is not None
        # Neither of them waits any more: the next player waits alone.
        carols = _lobby_socket(carol)
        assert _play(carols) == WAITING
        anns.assert_nothing_queued(ignoring=("lobby",))
        bobs.assert_nothing_queued(ignoring=("lobby",))
        for socket in (anns, bobs, carols):
            socket.close()


def test_cancel_and_leaving_leave_the_queue(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(lobby_debounce=0.01)) as ann:
        bob, carol = browser(ann), browser(ann)
        for client, name in ((ann, "Ann"), (bob, "Bob"), (carol, "Carol")):
            player(client, name)
        anns = _lobby_socket(ann)
        assert _play(anns) == WAITING
        anns.send({"type": "cancel"})
        assert anns.receive() == {"type": "queue", "state": "idle"}

        bobs = _lobby_socket(bob)
        assert _play(bobs) == WAITING, "Bob was paired with Ann, who cancelled"
        bobs.close()  # Bob leaves the page
        carols = _lobby_socket(carol)
        assert _play(carols) == WAITING, "Carol was paired with Bob, who left"

        # Ann comes back: she is paired with Carol, who waited longer.
        to_ann = _play(anns)
        to_carol = _matched(carols)
        assert to_ann["type"] == "matched" and to_ann["seat"] == 1
        assert to_carol == {"type": "matched", "game_id": to_ann["game_id"], "seat": 0}
        assert [s["name"] for s in game_summary(ann, to_ann["game_id"])["seats"]] == [
            "Carol", "Ann"]
        # Bob is in no game.
        assert lobby_picture(bob)["mine"] == []
        # Cancelling when not waiting is harmless.
        anns.send({"type": "cancel"})
        assert anns.receive_until("queue") == {"type": "queue", "state": "idle"}
        anns.close()
        carols.close()


def test_a_silent_socket_leaves_the_queue(make_app: Callable[..., FastAPI]) -> None:
    """A waiting player whose connection vanished is dropped with the socket (heartbeat),
    not paired with the next player. The heartbeat runs on a clock the test moves."""
    app = make_app(heartbeat_interval=1.0, heartbeat_timeout=3.0)
    clock = manual_clock(app)
    with serve(app) as ann:
        bob = browser(ann)
        player(ann, "Ann")
        player(bob, "Bob")
        silent = _lobby_socket(ann)
        assert _play(silent) == WAITING  # its last sign of life, at 0 s
        clock.advance(4.0)  # pinged at 1, 2 and 3 s; at 4 s silent too long: dropped
        told = [silent.receive_json(timeout=TIMEOUT) for _ in range(4)]
        assert [m["type"] for m in told] == ["ping", "ping", "ping", "error"], told
        assert told[-1]["code"] == "timeout"
        bobs = _lobby_socket(bob)
        assert _play(bobs) == WAITING
        assert lobby_picture(bob)["mine"] == []
        bobs.close()
        silent.close()


def test_one_player_in_two_tabs_is_never_paired_with_themselves(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app(lobby_debounce=0.01)) as ann:
        bob = browser(ann)
        player(ann, "Ann")
        player(bob, "Bob")
        first_tab, second_tab = _lobby_socket(ann), _lobby_socket(ann)
        assert _play(first_tab) == WAITING
        assert _play(second_tab) == WAITING
        assert first_tab.receive_until("queue") == {"type": "queue", "state": "idle",
                                                    "reason": "replaced"}
        # Pressing again in the first tab takes over again: still no game with herself.
        assert _play(first_tab) == WAITING
        assert second_tab.receive_until("queue")["reason"] == "replaced"
        assert lobby_picture(ann)["mine"] == []

        to_bob = _play(_lobby_socket(bob))
        to_ann = _matched(first_tab)
        assert (to_ann["seat"], to_bob["seat"]) == (0, 1)
        assert to_ann["game_id"] == to_bob["game_id"]
        second_tab.assert_nothing_queued(ignoring=("lobby",))
        assert len(lobby_picture(ann)["mine"]) == 1


def test_play_needs_a_player(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        socket = _lobby_socket(client)
        socket.send({"type": "play"})
        error = socket.receive()
        assert error["type"] == "error" and error["code"] == "no_player", error
        socket.send({"type": "cancel"})
        assert socket.receive() == {"type": "queue", "state": "idle"}
        # Nobody was queued: the next player waits.
        other = browser(client)
        player(other, "Bob")
        assert _play(_lobby_socket(other)) == WAITING
        socket.close()


def test_a_game_that_cannot_be_made_leaves_the_waiting_player_first(
        make_app: Callable[..., FastAPI], monkeypatch: pytest.MonkeyPatch) -> None:
    """The database fails as Bob presses play: Bob is told to try again, his socket stays
    open, and Ann, who was waiting, is still first in line."""
    app = make_app(lobby_debounce=0.01)
    with serve(app) as ann:
        bob, carol = browser(ann), browser(ann)
        for client, name in ((ann, "Ann"), (bob, "Bob"), (carol, "Carol")):
            player(client, name)
        anns, bobs = _lobby_socket(ann), _lobby_socket(bob)
        assert _play(anns) == WAITING
        service = app.state.service
        create = service.create_matched_game

        async def broken(*_args: Any) -> str:
            raise ConnectionError("the database went away")

        monkeypatch.setattr(service, "create_matched_game", broken)
        bobs.send({"type": "play"})
        error = bobs.receive()
        assert error["type"] == "error" and error["code"] == "unavailable", error
        monkeypatch.setattr(service, "create_matched_game", create)
        assert _play(_lobby_socket(carol))["seat"] == 1, "Carol is paired with Ann"
        assert _matched(anns)["seat"] == 0
        # Bob's socket is still open: it answers a ping (the new game's lobby picture may
        # come before the pong).
        bobs.assert_nothing_queued(ignoring=("lobby",))


def test_many_players_pressing_play_at_once_over_sockets(
        make_app: Callable[..., FastAPI]) -> None:
    count = 12
    with serve(make_app(lobby_debounce=0.05)) as first:
        browsers = [first, *(browser(first) for _ in range(count - 1))]
        names = [f"P{n:02}" for n in range(count)]
        for client, name in zip(browsers, names, strict=True):
            player(client, name)
        sockets = [_lobby_socket(client) for client in browsers]
        for socket in sockets:  # sent without waiting for answers: handled together
            socket.send({"type": "play"})
        matched = []
        for socket in sockets:
            while True:
                message = socket.receive()
                if message["type"] == "matched":
                    matched.append(message)
                    break
                assert message["type"] in ("lobby", "queue"), message
                assert message.get("state") != "idle", message
        games = Counter(m["game_id"] for m in matched)
        assert len(games) == count // 2 and set(games.values()) == {2}, games
        for game_id in games:
            seats = sorted(m["seat"] for m in matched if m["game_id"] == game_id)
            assert seats == [0, 1], (game_id, seats)
            by_seat = {m["seat"]: names[i] for i, m in enumerate(matched)
                       if m["game_id"] == game_id}
            summary = game_summary(first, game_id)
            assert [s["name"] for s in summary["seats"]] == [by_seat[0], by_seat[1]]
        for socket in sockets:
            socket.close()


# ---------------------------------------------------------------------- the queue itself

@dataclass(eq=False)
class FakeConnection:
    """What the queue needs of a lobby socket: its player and somewhere to send."""

    player: PlayerInfo | None
    sent: list[dict[str, Any]] = field(default_factory=list)

    def send(self, message: ServerMessage) -> None:
        self.sent.append(json.loads(message.encode()))  # as the wire has it


@dataclass
class Matchmaking:
    games: GameService
    queue: QuickMatch
    players: list[PlayerInfo]
    names: PlayerService


@asynccontextmanager
async def matchmaking(database: Database, players: int) -> AsyncIterator[Matchmaking]:
    engine = make_engine(database.url, database.schema)
    try:
        sessions = make_sessionmaker(engine)
        pubsub = InProcessPubSub()
        games = GameService(sessions, pubsub, database.settings(), seeds=repeatable_seeds())
        names = PlayerService(sessions)
        named = [await names.name(None, f"P{n:02}") for n in range(players)]
        registry = ServerRegistry(sessions, timeout=60)
        await registry.register()
        yield Matchmaking(games, QuickMatch(games, sessions, registry, pubsub), named, names)
    finally:
        await engine.dispose()


async def _seats(database: Database) -> list[Any]:
    return await database.read(select(Seat.game_id, Seat.seat, Seat.player_id, GameRow.origin)
                               .join(GameRow, GameRow.id == Seat.game_id))


def _slow_database(monkeypatch: pytest.MonkeyPatch, turns: int) -> None:
    """Every player read of the game service (two per pairing) first lets the other tasks
    run ``turns`` times: the players pressing play meanwhile pile up at the queue. (Turns
    of the event loop, not seconds: the interleaving does not hang on the machine's speed.)"""
    read = GameService._player

    async def slow(self: GameService, session: Any, player_id: str | None) -> Any:
        for _ in range(turns):
            await asyncio.sleep(0)
        return await read(self, session, player_id)

    monkeypatch.setattr(GameService, "_player", slow)


async def _check_pairs(database: Database, connections: list[FakeConnection],
                       expected_games: int) -> None:
    """Every game has two distinct players in seats 0 and 1, no player is in two games, the
    matched messages say so, and at most one connection still waits."""
    rows = await _seats(database)
    assert {r.origin for r in rows} <= {"quick_match"}
    by_game: dict[str, list[Any]] = {}
    for row in rows:
        by_game.setdefault(row.game_id, []).append(row)
    assert len(by_game) == expected_games, by_game
    for game_id, seats in by_game.items():
        assert sorted(s.seat for s in seats) == [0, 1], game_id
        assert len({s.player_id for s in seats}) == 2, f"{game_id} pairs a player with themself"
    players = Counter(r.player_id for r in rows)
    assert set(players.values()) <= {1}, f"players in two games: {players}"
    told = {(m["game_id"], m["seat"], c.player.player_id)  # type: ignore[union-attr]
            for c in connections for m in c.sent if m["type"] == "matched"}
    assert told == {(r.game_id, r.seat, r.player_id) for r in rows}
    still_waiting = [c for c in connections
                     if c.sent and c.sent[-1] == {"type": "queue", "state": "waiting"}]
    assert len(still_waiting) <= 1, still_waiting


@pytest.mark.parametrize("slow", [0, 20])
async def test_many_players_pressing_play_at_once(database: Database, slow: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    count = 17
    if slow:
        _slow_database(monkeypatch, slow)
    async with matchmaking(database, count) as made:
        connections = [FakeConnection(p) for p in made.players]
        results = await asyncio.gather(*(made.queue.enter(c) for c in connections),  # type: ignore[arg-type]
                                       return_exceptions=True)
        assert results == [None] * count
        await _check_pairs(database, connections, count // 2)
        # The odd one out is still waiting, and is the next player's partner.
        waiting = [c for c in connections if c.sent[-1] == WAITING]
        assert len(waiting) == 1
        latecomer = FakeConnection(await made.names.name(None, "Late"))
        await made.queue.enter(latecomer)  # type: ignore[arg-type]
        assert latecomer.sent[-1]["type"] == "matched"
        assert waiting[0].sent[-1] == {**latecomer.sent[-1], "seat": 0}
        await _check_pairs(database, [*connections, latecomer], count // 2 + 1)


async def test_two_players_racing_on_a_slow_database(database: Database,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Pairing waits on the database; players arriving meanwhile are neither paired with
    the two being paired nor lost."""
    _slow_database(monkeypatch, 10)
    async with matchmaking(database, 6) as made:
        ann, bob, carol, dan, eve, fay = (FakeConnection(p) for p in made.players)
        await asyncio.gather(made.queue.enter(ann), made.queue.enter(bob))  # type: ignore[arg-type]
        await _check_pairs(database, [ann, bob], 1)
        assert [m["seat"] for m in ann.sent + bob.sent if m["type"] == "matched"] == [0, 1]

        # Carol waits; Dan pairs with her, and the game is held at the database until
        # Eve and Fay have arrived.
        await made.queue.enter(carol)  # type: ignore[arg-type]
        create = made.games.create_matched_game
        creating, go_on = asyncio.Event(), asyncio.Event()

        async def held_create(*args: Any, **kwargs: Any) -> str:
            creating.set()
            await go_on.wait()
            return await create(*args, **kwargs)

        monkeypatch.setattr(made.games, "create_matched_game", held_create)
        pairing = asyncio.create_task(made.queue.enter(dan))  # type: ignore[arg-type]
        await asyncio.wait_for(creating.wait(), TIMEOUT)
        arriving = asyncio.gather(made.queue.enter(eve), made.queue.enter(fay))  # type: ignore[arg-type]
        await asyncio.sleep(0)  # one turn of the loop: both wait at the queue the pairing holds
        assert eve.sent == fay.sent == [], "told something before the pairing ended"
        go_on.set()
        await asyncio.wait_for(pairing, TIMEOUT)
        await asyncio.wait_for(arriving, TIMEOUT)
        everyone = [ann, bob, carol, dan, eve, fay]
        await _check_pairs(database, everyone, 3)
        pairs = {frozenset(c.player.player_id for c in everyone  # type: ignore[union-attr]
                           if c.sent[-1].get("game_id") == game_id)
                 for game_id in {c.sent[-1]["game_id"] for c in everyone}}
        ids = [c.player.player_id for c in everyone]  # type: ignore[union-attr]
        assert pairs == {frozenset(ids[0:2]), frozenset(ids[2:4]), frozenset(ids[4:6])}


async def test_two_tabs_racing_are_one_player(database: Database,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tabs of each player press play at once, on a slow database: nobody is paired
    with themselves, and each tab that lost its place was told so. (A tab pressing after
    the other tab was already paired waits for a game of its own.)"""
    _slow_database(monkeypatch, 10)
    async with matchmaking(database, 5) as made:
        tabs = [FakeConnection(p) for p in made.players for _ in range(2)]
        await asyncio.gather(*(made.queue.enter(t) for t in tabs))  # type: ignore[arg-type]
        rows = await _seats(database)
        by_game: dict[str, set[str]] = {}
        for row in rows:
            by_game.setdefault(row.game_id, set()).add(row.player_id)
        assert by_game and all(len(players) == 2 for players in by_game.values()), by_game
        for tab in tabs:
            last = tab.sent[-1]
            assert last["type"] == "matched" or last["state"] in ("waiting", "idle"), tab.sent
            if last["type"] == "queue" and last["state"] == "idle":
                assert last["reason"] == "replaced"
        waiting = {t.player.player_id for t in tabs  # type: ignore[union-attr]
                   if t.sent[-1] == WAITING}
        assert len(waiting) <= 1


async def test_a_tab_left_while_another_enters_does_not_take_its_place(
        database: Database) -> None:
    """A player's old tab closes (its place is given up in the background) just as a new
    tab of theirs presses play: the new tab's place stays, and the next player pairs
    with it."""
    async with matchmaking(database, 2) as made:
        ann, bob = made.players
        old_tab, new_tab = FakeConnection(ann), FakeConnection(ann)
        await made.queue.enter(old_tab)  # type: ignore[arg-type]
        assert old_tab.sent[-1] == WAITING
        assert made.queue.leave(old_tab)  # type: ignore[arg-type]
        await made.queue.enter(new_tab)  # type: ignore[arg-type]
        await made.queue.close()  # the old tab's leaving is done
        assert new_tab.sent[-1] == WAITING
        assert await made.queue.waiting() == [ann.name]
        partner = FakeConnection(bob)
        await made.queue.enter(partner)  # type: ignore[arg-type]
        assert partner.sent[-1]["type"] == "matched"
        assert new_tab.sent[-1] == {**partner.sent[-1], "seat": 0}
