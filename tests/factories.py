"""Shared factories and clients for the tests: databases of each kind, games set up over
HTTP, protocol clients on the game and lobby sockets, and the scan for hidden identities."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import socket as sockets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
import asyncpg
from alembic import command
from alembic.config import Config
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.sql import Executable
from starlette.websockets import WebSocketDisconnect

from app.config import Settings
from app.db.session import make_engine
from app.engine import Game, events_for, view
from app.engine.cards import CARDS, TOKENS, WONDERS
from app.engine.state import DecisionKind, Phase

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
IN_CI = os.environ.get("CI", "").lower() == "true"

# ---------------------------------------------------------------------- databases

POSTGRES_URL = os.environ.get("DUEL_TEST_POSTGRES_URL",
                              "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


@dataclass(frozen=True)
class Database:
    kind: str
    url: str
    schema: str | None = None

    async def read(self, statement: Executable) -> list[Any]:
        """The rows ``statement`` selects, read on a connection of the test's own (not the
        application's)."""
        engine = make_engine(self.url, self.schema)
        try:
            async with engine.connect() as connection:
                return list((await connection.execute(statement)).all())
        finally:
            await engine.dispose()

    def settings(self, **overrides: object) -> Settings:
        values: dict[str, object] = {"secret_key": "test-secret", **overrides}
        return Settings(database_url=self.url, database_schema=self.schema,
                        **values)  # type: ignore[arg-type]


def _postgres_reachable() -> bool:
    parts = urlsplit(POSTGRES_URL.replace("+asyncpg", ""))
    try:
        with sockets.create_connection((parts.hostname or "127.0.0.1", parts.port or 5432), 2):
            return True
    except OSError:
        return False


def _plain_postgres_url() -> str:
    return POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://")


async def _run_sql(sql: str) -> None:
    connection = await asyncpg.connect(_plain_postgres_url())
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def migrate(database: Database) -> None:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["url"] = database.url
    if database.schema:
        config.attributes["schema"] = database.schema
    command.upgrade(config, "head")


# ---------------------------------------------------------------------- hidden identities

def hidden_ids(game: Game, viewer: int | None) -> set[str]:
    """Identities ``viewer`` may not know at this moment."""
    state = game.state
    hidden = {CARDS[c].id for c in state.removed_cards}
    for age, deck in state.decks.items():
        if age > state.age:
            hidden.update(CARDS[c].id for c in deck)
    if state.age:
        hidden.update(CARDS[c].id for slot, c in enumerate(state.structure)
                      if c >= 0 and not state.face_up[slot])
    box = {TOKENS[t].id for t in state.box_tokens}
    decision = game.decision
    if decision is not None and decision.kind == DecisionKind.CHOOSE_LIBRARY_TOKEN \
            and decision.seat == viewer:
        box -= {TOKENS[t].id for t in decision.options}
    hidden |= box
    hidden.update(WONDERS[w].id for w in state.unused_wonders)
    if state.phase == Phase.DRAFT and state.draft_step < 4:
        hidden.update(WONDERS[w].id for w in state.draft_rounds[1])
    return hidden


def strings_in(data: Any, skip: frozenset[str] = frozenset({"chains", "science"})) -> set[str]:
    """Every string value in a JSON tree (chain and science symbol names excepted: they are
    not card ids even where they are spelled like one, e.g. the chain symbol "temple")."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(v for k, v in item.items() if k not in skip)
        elif isinstance(item, list):
            stack.extend(item)
    return found


# ---------------------------------------------------------------------- protocol clients

_ids = itertools.count(1)
_open: list[ProtocolClient] = []
"""Sockets not closed yet, for :func:`serve` to close."""


class ProtocolClient:
    """One socket on one game. Keeps the latest version and view it was sent, and every
    message it received (``inbox``), so tests can assert on all of them."""

    def __init__(self, client: TestClient, game_id: str, *, timeout: float | None = None) -> None:
        self._context = client.websocket_connect(f"/ws/games/{game_id}")
        self.ws = self._context.__enter__()
        self.game_id = game_id
        self.seat: int | None = None
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.inbox: list[dict[str, Any]] = []
        self.timeout = timeout
        """With a number of seconds, waiting longer for a message fails (TimeoutError)."""
        _open.append(self)

    def close(self) -> None:
        if self in _open:
            _open.remove(self)
            self._context.__exit__(None, None, None)

    def __enter__(self) -> ProtocolClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def receive_json(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message as sent, pings included (``WebSocketDisconnect`` once closed);
        waiting more than ``timeout`` seconds (if given) raises ``TimeoutError``."""
        if timeout is None:
            message: dict[str, Any] = self.ws.receive_json()
            return message
        frame = self.ws.portal.call(_receive_within, self.ws._send_rx, timeout)
        if frame["type"] == "websocket.close":
            raise WebSocketDisconnect(code=frame.get("code", 1000), reason=frame.get("reason"))
        decoded: dict[str, Any] = json.loads(frame["text"])
        return decoded

    def receive(self) -> dict[str, Any]:
        """The next message (server pings are answered and skipped)."""
        while True:
            message = self.receive_json(self.timeout)
            self.inbox.append(message)
            if message["type"] == "ping":
                self.send({"type": "pong"})
                continue
            if message["type"] in ("welcome", "state", "update"):
                self.version = message["version"]
                self.view = message["view"]
            return message

    def receive_until(self, kind: str) -> dict[str, Any]:
        """Messages up to and including the next one of type ``kind``."""
        while True:
            message = self.receive()
            if message["type"] == kind:
                return message

    def join(self, seat: int | None = None, token: str | None = None,
             last_version: int | None = None) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "join"}
        if seat is not None:
            message["seat"] = seat
        if token is not None:
            message["token"] = token
        if last_version is not None:
            message["last_version"] = last_version
        self.send(message)
        reply = self.receive()
        if reply["type"] == "welcome":
            self.seat = seat
        return reply

    def act(self, action: dict[str, Any] | str, version: int | None = None,
            client_id: str | None = None) -> dict[str, Any]:
        """Send an action; returns the ack or the error for it (the update that precedes
        an ack is in the inbox and has set ``version`` and ``view``)."""
        client_id = client_id or f"c{next(_ids)}"
        self.send({"type": "action", "action": action,
                   "version": self.version if version is None else version,
                   "client_id": client_id})
        while True:
            message = self.receive()
            if message["type"] in ("ack", "error") and message.get("client_id") == client_id:
                return message
            if message["type"] == "error" and "client_id" not in message:
                return message


    def barrier(self) -> list[dict[str, Any]]:
        """Send an app-level ping and read up to its pong: the messages the server had
        queued for this socket before it, in order (the pong excluded)."""
        start = len(self.inbox)
        self.send({"type": "ping"})
        self.receive_until("pong")
        return [m for m in self.inbox[start:-1] if m["type"] != "ping"]


@contextlib.contextmanager
def serve(app: FastAPI) -> Iterator[TestClient]:
    """A ``TestClient`` on ``app`` that closes, on the way out, every ProtocolClient left
    open (a failing test then reports its failure instead of hanging on open sockets)."""
    with TestClient(app) as client:
        opened = len(_open)
        try:
            yield client
        finally:
            for socket in reversed(_open[opened:]):
                with contextlib.suppress(Exception):
                    socket.close()


async def _receive_within(stream: Any, seconds: float) -> dict[str, Any]:
    with anyio.fail_after(seconds):
        message: dict[str, Any] = await stream.receive()
        return message


def new_game(client: TestClient, **options: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Create a game and take the second seat: (creator's credentials, joiner's)."""
    created = client.post("/api/games", json=options)
    assert created.status_code == 201, created.text
    first = created.json()
    joined = client.post(f"/api/games/{first['game_id']}/join",
                         json={"invite_code": first["invite_code"]})
    assert joined.status_code == 200, joined.text
    return first, joined.json()


def seat_view(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    """GET the seat's view over HTTP: ``{"version", "seat", "view"}``."""
    response = client.get(f"/api/games/{game_id}/view",
                          headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def server_game(client: TestClient, game_id: str) -> tuple[Game, int]:
    """The server's own replay of the game (its service cache) and its version."""
    app = client.app
    assert isinstance(app, FastAPI)
    result: tuple[Game, int] = client.portal.call(app.state.service.current, game_id)  # type: ignore[union-attr]
    return result


def as_json(data: Any) -> Any:
    """``data`` as it reads once sent over the wire (tuples become lists, ...)."""
    return json.loads(json.dumps(data))


@dataclass
class Step:
    """One action played through the protocol by :meth:`Table.step`."""

    version: int
    seat: int
    choice: dict[str, Any]
    """The chosen entry of the actor's ``legal_actions``."""
    ack: dict[str, Any]
    updates: dict[str, dict[str, Any]]
    """The update each audience received: ``"0"``, ``"1"``, ``"spectator"``."""
    events: list[dict[str, Any]]
    """The action's events as the independent replica produced them (unfiltered)."""


@dataclass
class Table:
    """A started game with both seats and a spectator connected, and an independent
    replica of the game (same seed and options, fed the notations the sockets received)."""

    client: TestClient
    game_id: str
    credentials: tuple[dict[str, Any], dict[str, Any]]
    seats: tuple[ProtocolClient, ProtocolClient]
    spectator: ProtocolClient
    replica: Game
    history: list[Step] = field(default_factory=list)

    @classmethod
    def open(cls, client: TestClient, timeout: float = 10.0, **options: Any) -> Table:
        first, second = new_game(client, **options)
        game_id = first["game_id"]
        seats = (ProtocolClient(client, game_id, timeout=timeout),
                 ProtocolClient(client, game_id, timeout=timeout))
        for seat, (socket, credentials) in enumerate(zip(seats, (first, second), strict=True)):
            welcome = socket.join(seat, credentials["token"])
            assert welcome["type"] == "welcome", welcome
        spectator = ProtocolClient(client, game_id, timeout=timeout)
        assert spectator.join()["type"] == "welcome"
        server, version = server_game(client, game_id)
        assert version == 0
        replica = Game.new(server.seed, server.options)
        return cls(client, game_id, (first, second), seats, spectator, replica)

    @property
    def sockets(self) -> dict[str, ProtocolClient]:
        return {"0": self.seats[0], "1": self.seats[1], "spectator": self.spectator}

    def close(self) -> None:
        for socket in self.sockets.values():
            socket.close()

    def step(self, chooser: random.Random, *, notation: bool | None = None,
             prefer: Callable[[dict[str, Any]], bool] | None = None) -> Step:
        """The seat to act (as its own view says) plays a random legal action (one that
        ``prefer`` likes, if any), sent as its notation or its JSON form; returns the ack
        and every audience's update."""
        actor_seat = self.seats[0].view["to_act"]  # type: ignore[index]
        assert actor_seat in (0, 1), "the game is over"
        actor = self.seats[actor_seat]
        assert actor.view is not None
        legal = actor.view["legal_actions"]
        preferred = [entry for entry in legal if prefer(entry)] if prefer else []
        choice = chooser.choice(preferred or legal)
        as_notation = chooser.random() < 0.5 if notation is None else notation
        version = actor.version
        start = len(actor.inbox)
        ack = actor.act(choice["notation"] if as_notation else choice["action"], version)
        assert ack["type"] == "ack", ack
        updates = {}
        for audience, socket in self.sockets.items():
            if socket is actor:  # its update came before its ack
                own = [m for m in socket.inbox[start:] if m["type"] == "update"]
                assert len(own) == 1, f"seat {actor_seat} got {len(own)} updates for its action"
                updates[audience] = own[0]
            else:
                updates[audience] = socket.receive_until("update")
        events = self.replica.apply(choice["notation"])
        step = Step(version, actor_seat, choice, ack, updates, events)
        self.history.append(step)
        return step

    def expected_update(self, step: Step, audience: str) -> dict[str, Any]:
        """The update ``audience`` should receive for the step just applied to the replica."""
        seat = None if audience == "spectator" else int(audience)
        return as_json({
            "type": "update", "version": step.version + 1, "seat": step.seat,
            "action": step.choice["action"], "notation": step.choice["notation"],
            "events": events_for(step.events, seat), "view": view(self.replica, seat),
        })


# ---------------------------------------------------------------------- players and the lobby

def browser(client: TestClient) -> TestClient:
    """Another browser on the same running server: its own cookie jar (so its own player
    session), the same application and event loop. ``client`` must be open (``serve``)."""
    assert client.portal is not None, "open the first client with serve() first"
    other = TestClient(client.app, base_url=str(client.base_url))
    other.portal = client.portal
    return other


def player(client: TestClient, name: str) -> dict[str, Any]:
    """Make the browser of ``client`` a player named ``name``: ``{"player_id", "name"}``."""
    response = client.put("/api/me", json={"name": name})
    assert response.status_code == 200, response.text
    assert "duel_session" in client.cookies, "the answer set no session cookie"
    body: dict[str, Any] = response.json()
    return body


class LobbyClient(ProtocolClient):
    """The lobby socket ``/ws/lobby`` of one browser. ``lobby`` is the latest picture it
    was sent; the inbox and the ping handling are those of :class:`ProtocolClient`."""

    def __init__(self, client: TestClient, *, timeout: float | None = 10.0) -> None:
        self._context = client.websocket_connect("/ws/lobby")
        self.ws = self._context.__enter__()
        self.game_id = ""
        self.seat = None
        self.version = 0
        self.view = None
        self.inbox = []
        self.timeout = timeout
        self.lobby: dict[str, Any] | None = None
        _open.append(self)

    def receive(self) -> dict[str, Any]:
        message = super().receive()
        if message["type"] == "lobby":
            self.lobby = message
        return message

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read lobby pictures up to the first one ``predicate`` accepts (the latest one
        already received counts); other messages are kept in the inbox."""
        while self.lobby is None or not predicate(self.lobby):
            self.receive()
        return self.lobby


def entry(picture: dict[str, Any], where: str, game_id: str) -> dict[str, Any] | None:
    """The game's entry in one list (``open``, ``live``, ``mine``) of a lobby picture."""
    return next((e for e in picture[where] if e["game_id"] == game_id), None)


def play_out(client: TestClient, game_id: str, *, keep: int = 0,
             seed: int = 0) -> list[tuple[int, dict[str, Any]]]:
    """Play the started game to its end with random legal moves, submitted straight to the
    server's game service as its seats would; the last ``keep`` moves are not played but
    returned, as (seat, action) in order, for the test to make."""
    app = client.app
    assert isinstance(app, FastAPI) and client.portal is not None
    server, version = server_game(client, game_id)
    replica = Game.replay(server.seed, server.options, server.log)
    chooser = random.Random(seed)
    moves: list[tuple[int, dict[str, Any]]] = []
    while not replica.is_over:
        assert len(moves) < 300, "the game does not end"
        seat = replica.to_act
        assert seat is not None
        action = chooser.choice(replica.legal_actions()).to_json()
        replica.apply(action)
        moves.append((seat, action))
    for number, (seat, action) in enumerate(moves[:len(moves) - keep]):
        client.portal.call(app.state.service.submit, game_id, seat, action, version + number,
                           None)
    return moves[len(moves) - keep:]


def make_move(client: TestClient, game_id: str, action: dict[str, Any] | None = None) -> int:
    """Play ``action`` (the first legal action if None) for the seat to act, at the
    game's current version, through the server's game service; the new version."""
    app = client.app
    assert isinstance(app, FastAPI) and client.portal is not None
    game, version = server_game(client, game_id)
    seat = game.to_act
    assert seat is not None, "the game is over"
    if action is None:
        action = game.legal_actions()[0].to_json()
    accepted = client.portal.call(app.state.service.submit, game_id, seat, action, version,
                                  None)
    new_version: int = accepted.version
    return new_version


def socket_seat(client: TestClient, game_id: str) -> int | None:
    """The seat a token-less join on the game socket gives this browser (its session's
    seat, or None for a spectator)."""
    with ProtocolClient(client, game_id, timeout=10.0) as socket:
        welcome = socket.join()
        assert welcome["type"] == "welcome", welcome
        seat: int | None = welcome["seat"]
        return seat


def game_summary(client: TestClient, game_id: str) -> dict[str, Any]:
    """The game's public summary (``GET /api/games/{id}``)."""
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body
