"""Two real server processes on one PostgreSQL database, as two replicas behind a proxy:
sockets on either hear every move, presence and the lobby are the same on both, quick
match pairs players waiting on different processes, and killing one process loses
nothing: its clients reconnect to the other and catch up.

Each process is ``uvicorn --factory app.main:create_app`` (as ``make run`` starts it) on
the test's own schema; clients are plain WebSocket and HTTP clients, as a browser's."""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from app.db.models import Game, GameAction, Presence, RatingChange
from tests.browser.server import free_port
from tests.factories import Database, answers_ok

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20.0
"""Seconds any one expected message may take (a bound, never a pace: nothing waits it out)."""


@pytest.fixture
def postgres(request: pytest.FixtureRequest) -> Iterator[Database]:
    schemas = request.getfixturevalue("postgres_template")
    database = schemas.create()
    try:
        yield database
    finally:
        schemas.drop(database)


@dataclass
class Process:
    """One server process and its base URL."""

    popen: subprocess.Popen[bytes]
    url: str
    log: Path

    @property
    def ws(self) -> str:
        return self.url.replace("http://", "ws://")

    def kill(self) -> None:
        """As ``kill -9``: no shutdown, no goodbye to its sockets."""
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(timeout=10)


@contextmanager
def processes(database: Database, tmp_path: Path, names: tuple[str, ...],
              secret: str) -> Iterator[tuple[Process, ...]]:
    """One server process per name, all started at once (each start is mostly imports, on
    whichever core is free), each waited for until it answers."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("DUEL_")}
    assert database.schema
    # Games here are played as fast as answers come; no page is fetched, so the pages'
    # scripts need no bundling at start.
    env.update(DUEL_DATABASE_URL=database.url, DUEL_DATABASE_SCHEMA=database.schema,
               DUEL_SECRET_KEY=secret, DUEL_LOBBY_DEBOUNCE="0.05",
               DUEL_SOCKET_BURST="100000", DUEL_MINIFY_ASSETS="false")
    started: list[Process] = []
    try:
        for name in names:
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            log = tmp_path / f"{name}.log"
            with log.open("wb") as out:
                popen = subprocess.Popen(
                    [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app",
                     "--host", "127.0.0.1", "--port", str(port), "--ws-max-size", "1048576",
                     "--http", "app.serving:HttpProtocol", "--ws", "app.serving:SocketProtocol"],
                    cwd=ROOT, env={**env, "DUEL_PUBLIC_URL": url}, stdout=out,
                    stderr=subprocess.STDOUT)
            started.append(Process(popen, url, log))
        deadline = time.monotonic() + 120  # a bound: a loaded machine imports slowly
        for name, each in zip(names, started, strict=True):
            while not answers_ok(each.url + "/healthz"):
                if each.popen.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"{name} did not start:\n{each.log.read_text(errors='replace')}")
                time.sleep(0.1)
        yield tuple(started)
    finally:
        for each in started:
            if each.popen.poll() is None:
                each.popen.terminate()
        for each in started:
            try:
                each.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                each.popen.kill()
                each.popen.wait()


@pytest.fixture
def two(postgres: Database, tmp_path: Path) -> Iterator[tuple[Process, Process]]:
    secret = secrets.token_urlsafe(32)  # one key: a session cookie opens both
    with processes(postgres, tmp_path, ("a", "b"), secret) as (a, b):
        yield a, b


class Http:
    """A browser's HTTP side: its own cookies (its session, its player)."""

    def __init__(self) -> None:
        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def post(self, url: str, body: dict[str, Any], method: str = "POST") -> dict[str, Any]:
        request = urllib.request.Request(url, data=json.dumps(body).encode(), method=method,
                                         headers={"content-type": "application/json"})
        with self.opener.open(request, timeout=WAIT) as response:
            answer: dict[str, Any] = json.loads(response.read())
        return answer

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.cookies)


@dataclass
class Socket:
    """A WebSocket client that answers pings and keeps every message it read."""

    connection: ClientConnection
    received: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    @contextmanager
    def open(cls, url: str, http: Http | None = None) -> Iterator[Socket]:
        headers = {"Cookie": http.cookie_header()} if http else None
        with connect(url, additional_headers=headers, open_timeout=WAIT) as connection:
            yield cls(connection)

    def send(self, message: dict[str, Any]) -> None:
        self.connection.send(json.dumps(message))

    def until(self, kind: str, **fields: Any) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while True:
            message = json.loads(self.connection.recv(timeout=deadline - time.monotonic()))
            self.received.append(message)
            if message["type"] == "ping":
                self.send({"type": "pong"})
            if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                return message

    def versions(self) -> list[int]:
        return [m["version"] for m in self.received if m["type"] == "update"]


def _started_game(a: Process, b: Process) -> tuple[str, list[str]]:
    """A game created on ``a`` and joined on ``b``: its id and the two seats' tokens."""
    http = Http()
    created = http.post(a.url + "/api/games", {"name": "Ann"})
    joined = http.post(f"{b.url}/api/games/{created['game_id']}/join",
                       {"invite_code": created["invite_code"], "name": "Bo"})
    return created["game_id"], [created["token"], joined["token"]]


def test_sockets_on_two_processes_hear_every_move_in_order(two: tuple[Process, Process]
                                                             ) -> None:
    """Seat 0 and a spectator on process a, seat 1 and a spectator on b: a whole game
    played by both seats, each on its own process. Every socket gets every update, in
    order, each with its own audience's view; the two spectators see the same game."""
    a, b = two
    game_id, tokens = _started_game(a, b)
    with ExitStack() as stack:
        seats = [stack.enter_context(Socket.open(f"{p.ws}/ws/games/{game_id}")) for p in (a, b)]
        watchers = [stack.enter_context(Socket.open(f"{p.ws}/ws/games/{game_id}"))
                    for p in (a, b)]
        for seat, socket in enumerate(seats):
            socket.send({"type": "join", "seat": seat, "token": tokens[seat]})
            assert socket.until("welcome")["version"] == 0
        for socket in watchers:
            socket.send({"type": "join"})
            assert socket.until("welcome")["seat"] is None
        last = play(seats, watchers, random.Random(11), moves=10_000)
        assert last > 40
        for socket in [*seats, *watchers]:
            assert socket.versions() == list(range(1, last + 1))


def _latest_view(socket: Socket) -> dict[str, Any]:
    return next(m["view"] for m in reversed(socket.received)
                if m["type"] in ("welcome", "update", "state"))


def play(seats: list[Socket], watchers: list[Socket], rng: random.Random, *,
         moves: int) -> int:
    """Up to ``moves`` random legal moves, each sent by the seat to act on its own socket,
    each checked as every socket hears of it; the version reached."""
    view = _latest_view(seats[0])
    version = next(m["version"] for m in reversed(seats[0].received)
                   if m["type"] in ("welcome", "update", "state"))
    for _ in range(moves):
        if view["to_act"] is None:
            break
        actor = seats[view["to_act"]]
        choice = rng.choice(_latest_view(actor)["legal_actions"])
        actor.send({"type": "action", "action": choice["notation"], "version": version,
                    "client_id": f"m{version}"})
        version += 1
        updates = [socket.until("update", version=version) for socket in [*seats, *watchers]]
        assert {u["notation"] for u in updates} == {choice["notation"]}
        assert len({json.dumps(u["view"], sort_keys=True) for u in updates[2:]}) <= 1, \
            "the spectators see one game"
        assert updates[0]["view"]["to_act"] == updates[1]["view"]["to_act"]
        view = updates[0]["view"]
    return version


def _presence_written(database: Database, game_id: str) -> None:
    """Wait until a process has written its sockets on the game (what another reads)."""
    deadline = time.monotonic() + WAIT
    query = select(Presence).where(Presence.game_id == game_id)
    while not asyncio.run(database.read(query)):
        assert time.monotonic() < deadline, "no presence written"
        time.sleep(0.02)


def test_presence_and_the_lobby_are_the_same_on_both_processes(
        two: tuple[Process, Process], postgres: Database) -> None:
    """Who is at a game counts every process's sockets; the lobby's lists are the
    database's, whichever process a lobby socket is on. A process's first socket on a
    game hears the others' at once: no one is shown away for a moment."""
    a, b = two
    ann, bo = Http(), Http()
    ann.post(a.url + "/api/me", {"name": "Ann"}, method="PUT")
    bo.post(b.url + "/api/me", {"name": "Bo"}, method="PUT")
    with ExitStack() as stack:
        looking = stack.enter_context(Socket.open(f"{b.ws}/ws/lobby", bo))
        assert looking.until("lobby")["open"] == []
        created = ann.post(a.url + "/api/games", {"listed": True})
        game_id = created["game_id"]
        picture = looking.until("lobby")
        assert [g["game_id"] for g in picture["open"]] == [game_id]

        seat0 = stack.enter_context(Socket.open(f"{a.ws}/ws/games/{game_id}", ann))
        seat0.send({"type": "join"})
        assert seat0.until("welcome")["seat"] == 0
        assert seat0.until("presence")["seats"] == [True, False]
        bo.post(f"{b.url}/api/games/{game_id}/join", {})
        picture = looking.until("lobby")
        assert picture["open"] == [] and [g["game_id"] for g in picture["live"]] == [game_id]

        _presence_written(postgres, game_id)  # seat 0's socket, by process a
        seat1 = stack.enter_context(Socket.open(f"{b.ws}/ws/games/{game_id}", bo))
        seat1.send({"type": "join"})
        assert seat1.until("welcome")["seat"] == 1
        assert seat1.until("presence")["seats"] == [True, True], "the first presence"
        assert seat0.until("presence", seats=[True, True])
        watcher = stack.enter_context(Socket.open(f"{b.ws}/ws/games/{game_id}"))
        watcher.send({"type": "join"})
        assert watcher.until("presence", seats=[True, True], spectators=1)
        assert seat0.until("presence", seats=[True, True], spectators=1)
        seat1.connection.close()
        assert seat0.until("presence", seats=[True, False], spectators=1)
        assert watcher.until("presence", seats=[True, False], spectators=1)


def test_quick_match_pairs_players_waiting_on_different_processes(
        two: tuple[Process, Process]) -> None:
    """Ann waits on process a; Bo presses play on b: both hear of the same game. Then
    Cy on a and Di on b press play at the same moment: paired, never both left waiting."""
    a, b = two
    people = {name: Http() for name in ("Ann", "Bo", "Cy", "Di")}
    where = {"Ann": a, "Bo": b, "Cy": a, "Di": b}
    for name, http in people.items():
        http.post(where[name].url + "/api/me", {"name": name}, method="PUT")
    with ExitStack() as stack:
        lobby = {name: stack.enter_context(Socket.open(f"{where[name].ws}/ws/lobby", http))
                 for name, http in people.items()}
        for socket in lobby.values():
            socket.until("lobby")
        lobby["Ann"].send({"type": "play"})
        assert lobby["Ann"].until("queue")["state"] == "waiting"
        lobby["Bo"].send({"type": "play"})
        bo = lobby["Bo"].until("matched")
        ann = lobby["Ann"].until("matched")
        assert ann["game_id"] == bo["game_id"] and (ann["seat"], bo["seat"]) == (0, 1)

        lobby["Cy"].send({"type": "play"})
        lobby["Di"].send({"type": "play"})
        heard = [lobby[name].until("matched") for name in ("Cy", "Di")]
        assert heard[0]["game_id"] == heard[1]["game_id"] != ann["game_id"]
        assert sorted(m["seat"] for m in heard) == [0, 1]


def test_two_processes_ending_a_rated_game_at_once_rate_it_once(
        two: tuple[Process, Process], postgres: Database) -> None:
    """Ann (on process a) and Bob (on b), two accounts, in a rated game, each on a game
    socket of their own process, resign at the same moment: one resignation ends the
    game, and the ratings move once (three games in a row)."""
    a, b = two
    ann, bo = Http(), Http()
    ann.post(a.url + "/api/account", {"username": "ann", "password": "a long secret"})
    bo.post(b.url + "/api/account", {"username": "bob", "password": "a long secret"})
    for round_ in range(3):
        created = ann.post(a.url + "/api/games", {"rated": True})
        game_id = created["game_id"]
        bo.post(f"{b.url}/api/games/{game_id}/join", {"invite_code": created["invite_code"]})
        with Socket.open(f"{a.ws}/ws/games/{game_id}", ann) as anns, \
                Socket.open(f"{b.ws}/ws/games/{game_id}", bo) as bos:
            for socket, seat in ((anns, 0), (bos, 1)):
                socket.send({"type": "join"})
                assert socket.until("welcome")["seat"] == seat
            # Each seat's first decision: before them nothing is at stake (abort instead).
            assert play([anns, bos], [], random.Random(round_), moves=2) == 2
            anns.send({"type": "resign"})
            bos.send({"type": "resign"})
            ended = [socket.until("update", version=3) for socket in (anns, bos)]
        assert ended[0]["notation"] == ended[1]["notation"] in ("forfeit:0:resigned",
                                                                "forfeit:1:resigned")
        changes = asyncio.run(postgres.read(
            select(RatingChange.seat, RatingChange.score)
            .where(RatingChange.game_id == game_id).order_by(RatingChange.seat)))
        loser = int(ended[0]["notation"].split(":")[1])
        assert [tuple(row) for row in changes] == [(0, float(loser)), (1, float(1 - loser))]
        for url in (a.url, b.url):
            with urllib.request.urlopen(f"{url}/api/players/ann", timeout=WAIT) as answer:
                assert json.loads(answer.read())["rated_games"] == round_ + 1


def test_killing_a_process_loses_nothing(two: tuple[Process, Process]) -> None:
    """Seat 0 plays on process a, seat 1 on b. Process a is killed (SIGKILL) right after
    seat 0 sent a move, before its answer: seat 0 reconnects to b, catches up from its
    last version, sends the same move again (same client id) and gets it acknowledged
    once; the game then goes on to its end with every version heard once by each seat."""
    a, b = two
    game_id, tokens = _started_game(a, b)
    rng = random.Random(5)
    with ExitStack() as stack:
        seats = [stack.enter_context(Socket.open(f"{p.ws}/ws/games/{game_id}")) for p in (a, b)]
        for seat, socket in enumerate(seats):
            socket.send({"type": "join", "seat": seat, "token": tokens[seat]})
            socket.until("welcome")
        version = play(seats, [], rng, moves=12)
        while _latest_view(seats[0])["to_act"] != 0:
            version = play(seats, [], rng, moves=1)
        choice = rng.choice(_latest_view(seats[0])["legal_actions"])
        move = {"type": "action", "action": choice["notation"], "version": version,
                "client_id": "before-the-kill"}
        seats[0].send(move)
        a.kill()
        heard_before = seats[0].versions()

        again = stack.enter_context(Socket.open(f"{b.ws}/ws/games/{game_id}"))
        again.send({"type": "join", "seat": 0, "token": tokens[0], "last_version": version})
        welcome = again.until("welcome")
        assert welcome["version"] in (version, version + 1)
        again.send(move)
        ack = again.until("ack", client_id="before-the-kill")
        assert ack["version"] == version + 1
        assert ack["duplicate"] == (welcome["version"] == version + 1)
        seats[1].until("update", version=version + 1)
        seats = [again, seats[1]]
        last = play(seats, [], rng, moves=10_000)
        assert _latest_view(again)["to_act"] is None, "the game went on to its end"
        caught_up = [m["version"] for m in welcome.get("missed", [])]
        assert heard_before + caught_up + again.versions() == list(range(1, last + 1))
        assert seats[1].versions() == list(range(1, last + 1))


def test_a_process_stopped_with_sigterm_drains_and_says_goodbye(
        two: tuple[Process, Process]) -> None:
    """SIGTERM: the process stops taking connections, closes its sockets with 1012
    (service restart: come back), finishes and leaves; the other process's sockets hear
    at once that its players are gone (it unregistered, nobody had to time it out)."""
    a, b = two
    game_id, tokens = _started_game(a, b)
    with ExitStack() as stack:
        seats = [stack.enter_context(Socket.open(f"{p.ws}/ws/games/{game_id}")) for p in (a, b)]
        for seat, socket in enumerate(seats):
            socket.send({"type": "join", "seat": seat, "token": tokens[seat]})
            socket.until("welcome")
        assert seats[1].until("presence", seats=[True, True])
        a.popen.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed) as closed:
            seats[0].until("never")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        # uvicorn exits by the signal it caught, once its shutdown is complete.
        assert a.popen.wait(timeout=WAIT) in (0, -signal.SIGTERM)
        assert "Application shutdown complete" in a.log.read_text()
        assert seats[1].until("presence", seats=[False, True])
        assert answers_ok(b.url + "/readyz")


def test_an_abort_reaches_both_processes_and_a_flag_fallen_meanwhile_counts_at_its_deadline(
        postgres: Database, tmp_path: Path) -> None:
    """Seat 1, on process b, aborts a game before anyone decided: both seats hear it, on
    either process. Then a 1+0 game is played on both until seat 1's clock runs, and both
    processes stop; its flag falls while none runs (its clock is set 75 s back, as if they
    had been down that long: no test waits a minute); two processes start again, and one
    of them ends the game on time, once, recorded at the flag's fall, not when noticed."""
    secret = secrets.token_urlsafe(32)
    with processes(postgres, tmp_path, ("a", "b"), secret) as (a, b):
        game_id, tokens = _started_game(a, b)
        with Socket.open(f"{a.ws}/ws/games/{game_id}") as first, \
                Socket.open(f"{b.ws}/ws/games/{game_id}") as second:
            for seat, socket in enumerate((first, second)):
                socket.send({"type": "join", "seat": seat, "token": tokens[seat]})
                assert socket.until("welcome")["abortable"] is True
            second.send({"type": "abort"})
            for socket in (first, second):
                assert socket.until("aborted") == {"type": "aborted", "reason": None,
                                                   "cause": "player", "seat": 1}

        http = Http()
        created = http.post(a.url + "/api/games", {
            "name": "Ann", "first_player": "creator",
            "time_control": {"kind": "fischer", "minutes": 1, "increment": 0}})
        timed = created["game_id"]
        joined = http.post(f"{b.url}/api/games/{timed}/join",
                           {"invite_code": created["invite_code"], "name": "Bo"})
        with Socket.open(f"{a.ws}/ws/games/{timed}") as first, \
                Socket.open(f"{b.ws}/ws/games/{timed}") as second:
            for seat, (socket, token) in enumerate(((first, created["token"]),
                                                    (second, joined["token"]))):
                socket.send({"type": "join", "seat": seat, "token": token})
                assert socket.until("welcome")["first_move"]["seat"] == 0
            assert play([first, second], [], random.Random(3), moves=2) == 2
            last = second.received[-1]
            assert last["clock"]["running"] == 1 and "first_move" not in last
    # Both processes are down: seat 1's flag falls meanwhile.
    [(since, deadline)] = asyncio.run(postgres.read(
        select(Game.clock_since, Game.deadline).where(Game.id == timed)))
    back = timedelta(seconds=75)
    asyncio.run(postgres.write(update(Game).where(Game.id == timed).values(
        clock_since=since - back, deadline=deadline - back)))
    with processes(postgres, tmp_path, ("c", "d"), secret) as (c, d):
        with Socket.open(f"{c.ws}/ws/games/{timed}") as watcher:
            watcher.send({"type": "join"})
            if watcher.until("welcome")["status"] != "finished":  # not noticed yet
                watcher.until("update", notation="forfeit:1:time")
        for url in (c.url, d.url):
            with urllib.request.urlopen(f"{url}/api/games/{timed}", timeout=WAIT) as answer:
                summary = json.loads(answer.read())
            assert (summary["status"], summary["winner"], summary["victory"]) == (
                "finished", 0, "time")
    entries = asyncio.run(postgres.read(
        select(GameAction.notation, GameAction.created_at).where(GameAction.game_id == timed)
        .order_by(GameAction.seq)))
    assert [notation for notation, _ in entries][2:] == ["forfeit:1:time"]
    assert entries[-1][1] == deadline - back

