"""Shared factories and clients for the tests: databases of each kind (copies of a migrated
template), games set up over HTTP, protocol clients on the game and lobby sockets, tables
of sockets playing a game, the scan for hidden identities, players and admins, random moves
made through the game service, and game services sharing a database as servers would."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import itertools
import json
import os
import random
import shutil
import socket as sockets
import sqlite3
import urllib.request
import uuid
import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Union
from unittest.mock import ANY
from urllib.parse import urlsplit

import anyio
import asyncpg
import itsdangerous
from alembic import command
from alembic.config import Config
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import Field, TypeAdapter
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.sql import Executable
from starlette.websockets import WebSocketDisconnect

from app.clock import SystemClock
from app.codes import ERRORS
from app.config import Settings
from app.db.models import Game as GameRow
from app.db.models import GameAction
from app.db.pubsub import InProcessPubSub
from app.db.session import make_engine, make_sessionmaker
from app.engine import (
    FORFEITS,
    Action,
    BuildCard,
    BuildFromDiscard,
    BuildWonder,
    ChooseProgressToken,
    ChooseStarter,
    DestroyCard,
    DiscardCard,
    Event,
    Forfeit,
    Game,
    PickWonder,
    TakeBack,
    events_for,
    events_json,
    view,
)
from app.engine.cards import CARDS, TOKENS, WONDERS
from app.engine.state import DecisionKind, Phase
from app.main import SESSION_COOKIE
from app.realtime.messages import ServerMessage
from app.realtime.protocol import SOCKETS, render_updates
from app.services.clocks import WallClock
from app.services.flags import FlagWatch
from app.services.games import SEED_BITS, Applied, GameService
from app.services.starts import FirstDecisions

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
IN_CI = os.environ.get("CI", "").lower() == "true"

# ---------------------------------------------------------------------- databases

POSTGRES_URL = os.environ.get("DUEL_TEST_POSTGRES_URL",
                              "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
TEST_SECRET_KEY = "test-secret"
"""The key the test applications sign their session cookies with."""


def repeatable_seeds() -> Callable[[], int]:
    """Seeds for the games a server deals, the same on every run of the running test (on
    either database): what a test plays, and so whether it passes, never rests on luck."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "").split(" ")[0].split("[")[0]
    source = random.Random(zlib.crc32(test.encode()))
    return lambda: source.getrandbits(SEED_BITS)


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

    async def write(self, statement: Executable) -> None:
        """Run ``statement`` and commit, on a connection of the test's own."""
        engine = make_engine(self.url, self.schema)
        try:
            async with engine.begin() as connection:
                await connection.execute(statement)
        finally:
            await engine.dispose()

    def settings(self, **overrides: object) -> Settings:
        # A socket's pace is checked by the clock the test holds, which stands still unless
        # moved: tests that send many messages would meet it (tests/api/test_limits.py
        # sets it where it is the subject).
        values: dict[str, object] = {"secret_key": TEST_SECRET_KEY,
                                     "socket_burst": 100_000, **overrides}
        # Likewise, tests that play many games from one address would meet the hourly limits.
        values.setdefault("games_per_hour", 100_000)
        values.setdefault("joins_per_hour", 100_000)
        # Each finished game would be analysed by the top bot: only where it is the subject.
        values.setdefault("analysis_enabled", False)
        return Settings(database_url=self.url, database_schema=self.schema,
                        **values)  # type: ignore[arg-type]


def answers_ok(url: str) -> bool:
    """Whether a server answers ``url`` with a 200 (False while it is not up)."""
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return int(response.status) == 200
    except OSError:
        return False


def postgres_reachable() -> bool:
    parts = urlsplit(POSTGRES_URL.replace("+asyncpg", ""))
    try:
        with sockets.create_connection((parts.hostname or "127.0.0.1", parts.port or 5432), 2):
            return True
    except OSError:
        return False


def alembic_config(database: Database, **attributes: Any) -> Config:
    """Alembic's configuration for ``database`` (``attributes`` as ``Config`` takes them,
    e.g. ``output_buffer``)."""
    config = Config(str(ROOT / "alembic.ini"), **attributes)
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["url"] = database.url
    if database.schema:
        config.attributes["schema"] = database.schema
    return config


def migrate(database: Database) -> None:
    """Run the real migrations on ``database``, up to head."""
    command.upgrade(alembic_config(database), "head")


class SqliteTemplate:
    """A SQLite database migrated once, with the real migrations; each test gets a copy of
    the file (a file copy takes a millisecond, migrating a tenth of a second)."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / "template.db"
        migrate(Database("sqlite", f"sqlite+aiosqlite:///{self.path}"))
        # The copies are copies of the main file alone: fold the write-ahead log into it.
        with contextlib.closing(sqlite3.connect(self.path)) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def copy(self, directory: Path) -> Database:
        path = directory / "duel.db"
        shutil.copyfile(self.path, path)
        return Database("sqlite", f"sqlite+aiosqlite:///{path}")


class PostgresTemplate:
    """The schema the migrations make, as the SQL Alembic prints for them (``alembic
    upgrade head --sql``, alembic_version included), replayed into a new uniquely named
    schema for each test in one transaction on a connection kept for the session.

    Measured (median create + drop, 2 cores): this replay 30-50 ms; ``CREATE DATABASE ...
    TEMPLATE`` 50-120 ms (STRATEGY FILE_COPY 150-330); one schema per worker truncated
    between tests about 32 ms, no faster to speak of, and it would neither start each test
    from a new schema nor survive the migration tests' downgrades; ``alembic upgrade`` per
    test 135 ms. tests/db/test_migrations.py checks that the replayed schema is the one
    the real migrations make."""

    def __init__(self) -> None:
        output = io.StringIO()
        command.upgrade(alembic_config(Database("postgres", POSTGRES_URL),
                                       output_buffer=output), "head", sql=True)
        script = output.getvalue().strip()
        # Alembic wraps the script in one transaction; create() makes its own around it.
        assert script.startswith("BEGIN;") and script.endswith("COMMIT;"), script[:200]
        self.ddl = script.removeprefix("BEGIN;").removesuffix("COMMIT;")
        # Its own loop, never installed as the thread's: pytest-asyncio runs tests on others.
        self._runner = asyncio.Runner(loop_factory=asyncio.new_event_loop)
        self._connection: asyncpg.Connection | None = None

    async def _connected(self) -> asyncpg.Connection:
        if self._connection is None or self._connection.is_closed():
            self._connection = await asyncpg.connect(
                POSTGRES_URL.replace("postgresql+asyncpg://", "postgresql://"))
        return self._connection

    async def _create(self, schema: str) -> None:
        connection = await self._connected()
        async with connection.transaction():
            await connection.execute(f'CREATE SCHEMA "{schema}"; '
                                     f'SET LOCAL search_path TO "{schema}"; {self.ddl}')

    async def _drop(self, schema: str) -> None:
        await (await self._connected()).execute(f'DROP SCHEMA "{schema}" CASCADE')

    def create(self) -> Database:
        """A new schema, migrated to head and empty; the name is unique, so that schemas
        left behind by a run that crashed, or made by a run alongside, never clash."""
        schema = f"test_{uuid.uuid4().hex[:12]}"
        self._runner.run(self._create(schema))
        return Database("postgres", POSTGRES_URL, schema)

    def drop(self, database: Database) -> None:
        assert database.schema is not None
        self._runner.run(self._drop(database.schema))

    def close(self) -> None:
        if self._connection is not None:
            self._runner.run(self._connection.close())
        self._runner.close()


# ---------------------------------------------------------------------- actions

EVERY_ACTION: tuple[Action, ...] = (
    *(PickWonder(w.id) for w in WONDERS),
    *(kind(c.id) for kind in (BuildCard, DiscardCard, DestroyCard, BuildFromDiscard)
      for c in CARDS),
    *(BuildWonder(w.id, c.id) for w in WONDERS for c in CARDS),
    *(ChooseProgressToken(t.id) for t in TOKENS),
    ChooseStarter(0), ChooseStarter(1),
)
"""Every move of the rules: each type with every id it can name."""
OUT_OF_TURN_ACTIONS: tuple[Action, ...] = (
    *(Forfeit(seat, victory.value) for seat in (0, 1) for victory in FORFEITS),
    TakeBack(0), TakeBack(1),
)
"""Every action a seat makes out of turn (never among the legal actions)."""


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


def strings_in(data: Any, skip: frozenset[str] = frozenset({"chains", "science"}), *,
               keys: bool = True) -> set[str]:
    """Every string in a JSON tree, the keys of its objects included (a view keys some data
    by card id, e.g. ``prices``; not with ``keys=False``), chain and science symbol names
    excepted: they are not card ids even where they are spelled like one, e.g. the chain
    symbol "temple")."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            if keys:
                found.update(k for k in item if isinstance(k, str) and k not in skip)
            stack.extend(v for k, v in item.items() if k not in skip)
        elif isinstance(item, list):
            stack.extend(item)
    return found


# ---------------------------------------------------------------------- protocol clients

def _union_of(models: tuple[type[ServerMessage], ...]) -> TypeAdapter[Any]:
    return TypeAdapter(Annotated[Union[models], Field(discriminator="type")])  # noqa: UP007


SERVER_MESSAGES = {socket: _union_of(directions["server"])
                   for socket, directions in SOCKETS.items()}
"""What the server may send on each socket, read back into its models."""
_ids = itertools.count(1)
_open: list[ProtocolClient] = []
"""Sockets not closed yet, for :func:`serve` to close."""


class ProtocolClient:
    """One socket on one game. Keeps the latest version and view it was sent, and every
    message it received (``inbox``), so tests can assert on all of them."""

    def __init__(self, client: TestClient, game_id: str, *, timeout: float | None = None,
                 path: str | None = None) -> None:
        self.path = path or f"/ws/games/{game_id}"
        self._context = client.websocket_connect(self.path)
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
            return self._as_typed(message)
        frame = self.ws.portal.call(_receive_within, self.ws._send_rx, timeout)
        if frame["type"] == "websocket.close":
            raise WebSocketDisconnect(code=frame.get("code", 1000), reason=frame.get("reason"))
        decoded: dict[str, Any] = json.loads(frame["text"])
        return self._as_typed(decoded)

    def _as_typed(self, message: dict[str, Any]) -> dict[str, Any]:
        """Every message any test receives is one the protocol's models describe, field for
        field (app/realtime/messages.py; the schema at /api/protocol.schema.json)."""
        typed = SERVER_MESSAGES["lobby" if self.path == "/ws/lobby" else "game"]
        model = typed.validate_python(message)
        assert json.loads(model.encode()) == message, message.get("type")
        return message

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
            elif message["type"] == "error":  # every refusal can be worded from its code
                assert_worded(message)
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

    def assert_nothing_queued(self, *, only: tuple[str, ...] = (),
                              ignoring: tuple[str, ...] = ()) -> None:
        """The server had queued nothing more for this socket (:meth:`barrier`): no message
        at all, or none of the types ``only``, leaving aside the types ``ignoring``."""
        extra = [m for m in self.barrier()
                 if (not only or m["type"] in only) and m["type"] not in ignoring]
        assert extra == [], f"unexpected messages: {extra}"

    def received(self, kind: str) -> list[dict[str, Any]]:
        """Every message of type ``kind`` this socket has read so far, in order."""
        return [m for m in self.inbox if m["type"] == kind]


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


# ---------------------------------------------------------------------- games over HTTP

def ok(response: Any, status: int = 200) -> Any:
    """The JSON body of ``response``, which must have this status."""
    assert response.status_code == status, response.text
    return response.json()


def create_game(client: TestClient, **body: Any) -> dict[str, Any]:
    """``POST /api/games`` with ``body``: the creator's answer (id, token, invite code...)."""
    created: dict[str, Any] = ok(client.post("/api/games", json=body), 201)
    return created


def join_game(client: TestClient, created: dict[str, Any], **body: Any) -> dict[str, Any]:
    """Take the second seat of the game ``created`` (as :func:`create_game` answers) with
    its invite code, from the browser of ``client``: the joiner's answer."""
    joined: dict[str, Any] = ok(client.post(f"/api/games/{created['game_id']}/join",
                                            json={"invite_code": created["invite_code"],
                                                  **body}))
    return joined


def new_game(client: TestClient, *, joiner: TestClient | None = None,
             joiner_name: str | None = None,
             **options: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Create a game (``options`` as ``POST /api/games`` takes them) and take the second
    seat, from ``joiner``'s browser if given, under ``joiner_name`` if given: (creator's
    answer, joiner's)."""
    first = create_game(client, **options)
    second = join_game(joiner or client, first,
                       **({} if joiner_name is None else {"name": joiner_name}))
    return first, second


def seated_game(client: TestClient, *, timeout: float, **options: Any
                ) -> tuple[str, list[ProtocolClient]]:
    """A game (``options`` as ``POST /api/games`` takes them; the first game's wonders, seat
    0 to act) with Ann (seat 0), Bob (seat 1) and a spectator joined on its socket, each
    from a browser of its own: the game's id and the three sockets."""
    created, joined = new_game(client, wonder_selection="first_game", first_player="creator",
                               **options)
    game_id = created["game_id"]
    sockets = [ProtocolClient(browser(client), game_id, timeout=timeout) for _ in range(3)]
    sockets[0].join(0, created["token"])
    sockets[1].join(1, joined["token"])
    sockets[2].join()
    return game_id, sockets


def socket_first_decisions(first: ProtocolClient, second: ProtocolClient,
                           *others: ProtocolClient) -> None:
    """The first decision of ``first``'s seat, then of ``second``'s, each sent on its
    socket and heard by every other: the clocks run from here, and the game can no longer
    be aborted."""
    sockets = (first, second, *others)
    for actor in (first, second):
        assert actor.view is not None and actor.view["to_act"] == actor.seat
        assert actor.act(actor.view["legal_actions"][0]["action"])["type"] == "ack"
        for socket in sockets:
            if socket is not actor:
                socket.receive_until("update")


def assert_refused(response: Any, status: int, code: str) -> dict[str, Any]:
    """``response`` is a refusal of the one documented shape (``{"error": {"code",
    "message", ...}}``) with this status and code: its ``error``."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}, body
    error: dict[str, Any] = body["error"]
    assert error["code"] == code, body
    assert isinstance(error["message"], str) and error["message"], body
    assert_worded(error)
    return error


def assert_worded(error: dict[str, Any]) -> None:
    """A refusal a page can word without its English ``message``: a registered ``code`` and
    ``params`` holding only the figures that code may carry (``detail`` among them)."""
    assert error["code"] in ERRORS, error
    params = error["params"]
    assert isinstance(params, dict) and set(params) <= set(ERRORS[error["code"]]), error
    assert params.get("detail") == error.get("detail"), error


def bearer(token: str) -> dict[str, str]:
    """The headers that present a seat's token."""
    return {"Authorization": f"Bearer {token}"}


def seat_view(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    """GET the seat's view over HTTP: ``{"version", "seat", "view"}``."""
    body: dict[str, Any] = ok(client.get(f"/api/games/{game_id}/view", headers=bearer(token)))
    return body


def spectator_view(client: TestClient, game_id: str) -> dict[str, Any]:
    """GET a spectator's view over HTTP: ``{"version", "seat": None, "view"}``."""
    body: dict[str, Any] = ok(client.get(f"/api/games/{game_id}/spectate"))
    return body


def http_views(client: TestClient, game_id: str, tokens: Iterable[str]) -> list[dict[str, Any]]:
    """The view of each seat whose token is in ``tokens``, then a spectator's, over HTTP."""
    return [*(seat_view(client, game_id, token) for token in tokens),
            spectator_view(client, game_id)]


def game_summary(client: TestClient, game_id: str) -> dict[str, Any]:
    """The game's public summary (``GET /api/games/{id}``)."""
    body: dict[str, Any] = ok(client.get(f"/api/games/{game_id}"))
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


# ------------------------------------------------------------ tables of sockets playing a game

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
    events: list[Event]
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
        """A new game (``options`` as ``POST /api/games`` takes them) at the table."""
        return cls.around(client, *new_game(client, **options), timeout=timeout)

    @classmethod
    def around(cls, client: TestClient, first: dict[str, Any], second: dict[str, Any],
               timeout: float = 10.0) -> Table:
        """The table of a game just started, whose seats' answers are ``first`` and
        ``second``: each seat joins with its token, the spectator without one."""
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
        expected: dict[str, Any] = as_json({
            "type": "update", "version": step.version + 1, "seat": step.seat,
            "action": step.choice["action"], "notation": step.choice["notation"],
            "events": events_for(step.events, seat), "view": view(self.replica, seat),
        })
        # Fair starts: while a seat has made no decision of its own the game may be
        # aborted, and the next seat's first decision has a deadline (its time left
        # depends on the wall clock: any).
        decided = FirstDecisions()
        for earlier in self.history[:self.history.index(step) + 1]:
            decided = decided.after(earlier.seat, earlier.choice["action"])
        if not self.replica.is_over and not decided.both_made:
            expected["abortable"] = True
        to_act = self.replica.to_act
        if to_act is not None and not decided.made(to_act):
            expected["first_move"] = {"seat": to_act, "remaining": ANY}
        return expected


# -------------------------------------------------------- scanning a table for hidden identities

AUDIENCES: dict[str, int | None] = {"0": 0, "1": 1, "spectator": None}
"""The sockets of a :class:`Table` by audience, and the seat each one sees as."""


def fond_of_the_great_library(entry: dict[str, Any]) -> bool:
    """For :meth:`Table.step`'s ``prefer``: draft and build The Great Library whenever
    possible, so that its private draw of tokens (seen by its builder only) happens in most
    games."""
    action = entry["action"]
    return action.get("wonder") == "the_great_library" \
        and action["type"] in ("pick_wonder", "build_wonder")


def offering(client: TestClient, wonder: str, **body: Any) -> dict[str, Any]:
    """A new game (``body`` as ``POST /api/games`` takes it) whose wonder draft offers
    ``wonder``: the creator's answer. Games made on the way are left waiting."""
    for _ in range(50):
        created = create_game(client, **body)
        game, _ = server_game(client, created["game_id"])
        if wonder in {WONDERS[w].id for rounds in game.state.draft_rounds for w in rounds}:
            return created
    raise AssertionError(f"no draft offered {wonder}")


class Scanner:
    """Plays a :class:`Table`'s game to its end and checks every message each audience
    received against what it may not know at that version (:func:`hidden_ids` on the
    table's replica)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.hidden: dict[str, list[set[str]]] = {a: [] for a in AUDIENCES}
        """Per audience, the hidden ids at each version (index = version)."""
        self.scanned = dict.fromkeys(AUDIENCES, 0)
        self.library_draws = 0
        """Great Library draws seen by :meth:`play`, each checked."""
        self.record()
        self.check_inboxes()  # the welcomes

    def record(self) -> None:
        """The replica has just reached a new version."""
        for audience, seat in AUDIENCES.items():
            hidden = hidden_ids(self.table.replica, seat)
            assert hidden, "something is always hidden (the cards left out at setup)"
            self.hidden[audience].append(hidden)

    def check(self, audience: str, message: Any, version: int, what: str) -> None:
        leaked = self.hidden[audience][version] & strings_in(message)
        assert not leaked, (f"game seed {self.table.replica.seed}: {audience} was sent hidden"
                            f" {sorted(leaked)} in {what} at version {version}")

    def check_inboxes(self) -> None:
        """Every message each socket received since the last check (up to and including
        the update of the current version)."""
        version = len(self.hidden["0"]) - 1
        for audience, socket in self.table.sockets.items():
            for message in socket.inbox[self.scanned[audience]:]:
                if "missed" in message:
                    continue  # a catch-up: see check_catch_up
                self.check(audience, message, version, f"a {message['type']} message")
            self.scanned[audience] = len(socket.inbox)

    def check_catch_up(self, audience: str, message: dict[str, Any]) -> None:
        """A welcome or state with ``missed``: the view against what is hidden now, each
        missed entry against what was hidden at its version (The Great Library's builder
        may be reminded of its draw: it saw it then)."""
        version = message["version"]
        assert version == len(self.hidden[audience]) - 1
        self.check(audience, {k: v for k, v in message.items() if k != "missed"}, version,
                   f"a {message['type']}")
        for entry in message["missed"]:
            self.check(audience, entry, entry["version"],
                       f"the missed events of a {message['type']}")

    def play(self, chooser: random.Random) -> Iterator[int]:
        """Play the table's game to its end, fond of the Great Library, checking every
        message after each action; yields the number of actions played after each."""
        table = self.table
        while not table.replica.is_over:
            step = table.step(chooser, prefer=fond_of_the_great_library)
            self.record()
            self.check_inboxes()
            decision = table.replica.decision
            if decision is not None and decision.kind == DecisionKind.CHOOSE_LIBRARY_TOKEN:
                self.library_draws += 1
                _check_library_draw(step, decision.seat)
            yield len(table.history)

    def finish(self, audiences: Iterable[str]) -> None:
        """At the end: each of ``audiences`` asks for the whole story again, which is
        checked; and the replica must be the server's game (what was hidden was computed
        on the truth)."""
        table = self.table
        for audience in audiences:
            socket = table.sockets[audience]
            socket.send({"type": "sync", "last_version": 0})
            state = socket.receive_until("state")
            assert len(state["missed"]) == len(table.history)
            self.check_catch_up(audience, state)
        self.check_inboxes()
        server, version = server_game(table.client, table.game_id)
        assert version == len(table.history)
        assert table.replica.state_hash() == server.state_hash()


def _check_library_draw(step: Step, builder: int) -> None:
    """The builder sees the drawn tokens (in its view and its events); the others only how
    many were drawn."""
    drawn = [e for e in events_json(step.events) if e["type"] == "library_drawn"]
    assert len(drawn) == 1, step.events
    tokens = drawn[0]["tokens"]
    for audience, seat in AUDIENCES.items():
        update = step.updates[audience]
        seen = [e for e in update["events"] if e["type"] == "library_drawn"]
        decision = update["view"]["decision"]
        if seat == builder:
            assert seen[0]["tokens"] == tokens
            assert decision["options"] == tokens
        else:
            assert "tokens" not in seen[0] and seen[0]["count"] == len(tokens)
            assert "options" not in decision and decision["count"] == len(tokens)


# ---------------------------------------------------------------------- players and the lobby

def browser(client: TestClient, address: str = "testclient") -> TestClient:
    """Another browser on the same running server: its own cookie jar (so its own player
    session), the same application and event loop, connecting from ``address``. ``client``
    must be open (``serve``)."""
    assert client.portal is not None, "open the first client with serve() first"
    other = TestClient(client.app, base_url=str(client.base_url), client=(address, 50000))
    other.portal = client.portal
    return other


def player(client: TestClient, name: str) -> dict[str, Any]:
    """Make the browser of ``client`` a player named ``name``: ``{"player_id", "name"}``."""
    body: dict[str, Any] = ok(client.put("/api/me", json={"name": name}))
    assert SESSION_COOKIE in client.cookies, "the answer set no session cookie"
    return body


def signed_session(data: dict[str, Any], key: str = TEST_SECRET_KEY) -> str:
    """A session cookie holding ``data``, signed with ``key`` as Starlette's
    SessionMiddleware signs one (with the test applications' key, it is genuine)."""
    payload = base64.b64encode(json.dumps(data).encode())
    return itsdangerous.TimestampSigner(key).sign(payload).decode()


def with_session_cookie(client: TestClient, value: str) -> TestClient:
    """``client`` with ``value`` as its only cookie, the session cookie."""
    client.cookies.clear()
    client.cookies.set(SESSION_COOKIE, value)
    return client


def admin_login(client: TestClient, password: str, next_page: str = "/admin") -> Any:
    """Post the admin login form from ``client``'s browser: the answer (a 303 to
    ``next_page`` when the password is right)."""
    return client.post("/admin/login", data={"password": password, "next": next_page},
                       follow_redirects=False)


def admin_abort(client: TestClient, game_id: str, reason: str = "test",
                address: str | None = None) -> None:
    """Abort the game as the admin's abort does, straight through the server's game
    service (no admin login needed), with ``reason`` and ``address`` as the admin's client
    on record; a refusal raises its ``ServiceError``."""
    app = client.app
    assert isinstance(app, FastAPI) and client.portal is not None
    client.portal.call(lambda: app.state.service.abort(game_id, reason=reason, client=address))


class LobbyClient(ProtocolClient):
    """The lobby socket ``/ws/lobby`` of one browser. ``lobby`` is the latest picture it
    was sent; the inbox and the ping handling are those of :class:`ProtocolClient`."""

    def __init__(self, client: TestClient, *, timeout: float | None = 10.0) -> None:
        self.lobby: dict[str, Any] | None = None
        super().__init__(client, "", timeout=timeout, path="/ws/lobby")

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


def lobby_picture(client: TestClient) -> dict[str, Any]:
    """The lobby as the browser of ``client`` sees it (``GET /api/lobby``)."""
    picture: dict[str, Any] = ok(client.get("/api/lobby"))
    return picture


def entry(picture: dict[str, Any], where: str, game_id: str) -> dict[str, Any] | None:
    """The game's entry in one list (``open``, ``live``, ``mine``) of a lobby picture."""
    return next((e for e in picture[where] if e["game_id"] == game_id), None)


def socket_seat(client: TestClient, game_id: str) -> int | None:
    """The seat a token-less join on the game socket gives this browser (its session's
    seat, or None for a spectator)."""
    with ProtocolClient(client, game_id, timeout=10.0) as socket:
        welcome = socket.join()
        assert welcome["type"] == "welcome", welcome
        seat: int | None = welcome["seat"]
        return seat


# -------------------------------------------------------------- moves through the game service

def random_moves(game: Game, seed: int = 0) -> list[tuple[int, dict[str, Any]]]:
    """The rest of ``game``, played on a replica with random legal moves (``seed`` picks
    them): (seat, action) in order, up to the end."""
    replica = Game.replay(game.seed, game.options, game.log)
    chooser = random.Random(seed)
    moves: list[tuple[int, dict[str, Any]]] = []
    while not replica.is_over:
        assert len(moves) < 300, "the game does not end"
        seat = replica.to_act
        assert seat is not None
        action = chooser.choice(replica.legal_actions()).to_json()
        replica.apply(action)
        moves.append((seat, action))
    return moves


async def submit_moves(service: GameService, game_id: str,
                       moves: Iterable[tuple[int, dict[str, Any]]]) -> int:
    """Submit (seat, action) moves in order to a game service, as the seats would, from
    the game's current version on: the version after them."""
    _, version = await service.current(game_id)
    for seat, action in moves:
        version = (await service.submit(game_id, seat, action, version, None)).version
    return version


def play_out(client: TestClient, game_id: str, *, keep: int = 0,
             seed: int = 0) -> list[tuple[int, dict[str, Any]]]:
    """Play the started game to its end with :func:`random_moves`, submitted straight to
    the server's game service; the last ``keep`` moves are not played but returned, as
    (seat, action) in order, for the test to make."""
    moves = random_moves(server_game(client, game_id)[0], seed)
    _submit(client, game_id, moves[:len(moves) - keep])
    return moves[len(moves) - keep:]


def play_moves(client: TestClient, game_id: str, count: int, *, seed: int = 0) -> None:
    """Play the first ``count`` of the moves :func:`play_out` would play."""
    moves = random_moves(server_game(client, game_id)[0], seed)
    assert len(moves) >= count, f"the game ends after {len(moves)} moves"
    _submit(client, game_id, moves[:count])


def _submit(client: TestClient, game_id: str, moves: list[tuple[int, dict[str, Any]]]) -> int:
    app = client.app
    assert isinstance(app, FastAPI) and client.portal is not None
    version: int = client.portal.call(submit_moves, app.state.service, game_id, moves)
    return version


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


# ---------------------------------------------------------------------- game services

class ManualWall(WallClock):
    """The database's time as a test sets it: it moves only when the test says."""

    def __init__(self, start: datetime | None = None) -> None:
        self.at = start or datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
        super().__init__(lambda: self.at)

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at


def counting_still(app: FastAPI, wall: ManualWall | None = None) -> FastAPI:
    """``app`` with a wall that stands still once the server has read the database's clock
    at its start (no heartbeat reads it again): rate limits count in fixed windows of that
    wall, so a test's events never straddle a window's edge (tests move it by hand).
    Servers sharing one ``wall`` count in the same windows."""
    app.state.wall = wall or ManualWall()
    return app


@dataclass
class Server:
    """One server's game service, with its own engine, pub/sub and record of the game
    updates of the actions it committed (each audience's, as its sockets get them) and
    of the notices it published; and its watch for fallen flags."""

    service: GameService
    engine: AsyncEngine
    pubsub: InProcessPubSub
    flags: FlagWatch
    published: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


@contextlib.asynccontextmanager
async def servers(database: Database, count: int = 1,
                  wall: WallClock | None = None) -> AsyncIterator[list[Server]]:
    """``count`` servers sharing ``database``, as game services without HTTP (their
    engines are disposed of on the way out), reading the time from ``wall``."""
    made: list[Server] = []
    wall = wall or WallClock()
    try:
        for _ in range(count):
            engine = make_engine(database.url, database.schema)
            pubsub = InProcessPubSub()
            sessions = make_sessionmaker(engine)
            service = GameService(sessions, pubsub, database.settings(),
                                  seeds=repeatable_seeds(), wall=wall)
            server = Server(service, engine, pubsub,
                            FlagWatch(service, sessions, clock=SystemClock(), wall=wall,
                                      interval=1.0))

            def record(applied: Applied, server: Server = server) -> None:
                if applied.here:  # what this server committed, as every server may tell it
                    server.published.append((applied.game_id, {
                        "version": applied.version,
                        "updates": {audience: update.model_dump() for audience, update in
                                    render_updates(applied.game, applied.version,
                                                   seat=applied.seat, action=applied.action,
                                                   notation=applied.notation,
                                                   events=applied.events,
                                                   clock=applied.clocks and
                                                   applied.clocks.to_json(wall.now())
                                                   ).items()}}))

            async def record_notice(topic: str, message: dict[str, Any],
                                    server: Server = server) -> None:
                if {"rematch", "aborted", "take_back"} & set(message):  # a notice
                    server.published.append((topic, message))

            service.watch(record)
            pubsub.subscribe(record_notice)
            made.append(server)
        yield made
    finally:
        for server in made:
            await server.engine.dispose()


async def started_game(service: GameService, **options: Any) -> tuple[str, list[str]]:
    """A game made through a game service with both seats taken, seat 0 to act first (a
    draft unless ``wonder_selection`` says otherwise; untimed unless ``time_control``
    says otherwise): its id and the seats' tokens."""
    created = await service.create_game(wonder_selection=options.get("wonder_selection",
                                                                     "draft"),
                                        creator_starts=True, name=None,
                                        time_control=options.get("time_control"))
    game_id = created.credentials.game_id
    joined = await service.join_game(game_id, created.invite_code, None)
    return game_id, [created.credentials.token, joined.token]


async def first_decisions(service: GameService, game_id: str) -> int:
    """Each seat's first decision (its first legal action), made at once: the clocks run
    from here, and the game can no longer be aborted. The version after them."""
    version = 0
    for _ in range(2):
        game, version = await service.current(game_id)
        assert game.to_act is not None
        version = (await service.submit(game_id, game.to_act,
                                        game.legal_actions()[0].to_json(), version,
                                        None)).version
    return version


async def game_row(database: Database, game_id: str) -> Any:
    """The game's row as stored, read on a connection of our own."""
    [row] = await database.read(select(GameRow).where(GameRow.id == game_id))
    return row


async def log_rows(database: Database, game_id: str) -> list[Any]:
    """The game's log as stored, read on a connection of our own."""
    return await database.read(select(GameAction).where(GameAction.game_id == game_id)
                               .order_by(GameAction.seq))
