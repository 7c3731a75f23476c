"""Fuzzing the game socket and the lobby socket (docs/protocol.md, docs/lobby.md) with
hypothesis: sequences of messages from every kind of socket (each seat, a spectator, one
not joined yet; players and a visitor in the lobby), readable or not, valid-shaped or not,
each checked as it is answered:

- nothing closes a socket or raises: every message is followed by a ``ping`` whose
  ``pong`` must come (a close, 1011 or any other, fails the test);
- a message that cannot be read (not JSON, a binary frame, not an object, an unknown
  type, a missing, extra or ill-typed field, over the size limit) gets exactly one error
  (``malformed``, ``unknown_type`` or ``too_large``, without ``client_id``) and nothing else;
- a readable message gets its answer or an error with a registered code (ProtocolClient
  also checks that every message is one of the protocol's models, and that every error can
  be worded from its code), at most one of them; an action's answer names its client_id;
- the game as stored (its row and its log) is unchanged by a refusal, and its version moves
  on only with an update to the sender; the quick-match queue is unchanged by a refusal;
- nothing is logged at ERROR.

One application and one game serve every example of a test (an application per example
would cost more than the whole budget); a game that a fuzzed message ended is replaced at
the next example. Every limit that depends on time (heartbeats, chat and message rates) is
set out of reach, so that what a message gets depends on the messages alone.
"""

from __future__ import annotations

import itertools
import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.websockets import WebSocketDisconnect

from app.db.models import Game as GameRow
from app.db.models import GameAction
from app.realtime.protocol import CLIENT_TYPES, LOBBY_TYPES
from app.services.chat import PHRASES
from tests.factories import (
    EVERY_ACTION,
    OUT_OF_TURN_ACTIONS,
    LobbyClient,
    ProtocolClient,
    browser,
    new_game,
    player,
    serve,
)

# Property tests: `make test-long` runs them again, searching for new examples.
pytestmark = pytest.mark.hypothesis
TIMEOUT = 10.0
"""Seconds to wait for an answer before failing (only a hung server waits that long)."""
LIMIT = 8192
"""``DUEL_MAX_MESSAGE_BYTES`` here: messages over it are cheap to make."""
FAR = 10**6
QUIET: dict[str, object] = {
    "max_message_bytes": LIMIT,
    # Out of reach: no ping, timeout or rate limit can depend on how fast the run goes.
    "heartbeat_interval": FAR, "heartbeat_timeout": FAR, "join_timeout": FAR,
    "chat_burst": FAR, "socket_burst": FAR, "socket_rate": FAR,
    # Counted per hour: tables replaced and quick matches made must not run into them.
    "games_per_hour": FAR, "joins_per_hour": FAR,
}
UNREADABLE = frozenset({"malformed", "unknown_type", "too_large"})
GAME_ANSWERS = {"join": ("welcome",), "action": ("ack",), "sync": ("state",),
                "ping": ("pong",), "chat_history": ("chat_history",)}
"""What a readable message of each type is answered with, when it is not refused; the
others are answered by a refusal, or by nothing (their notice goes to everyone)."""
LOBBY_ANSWERS = {"play": ("queue", "matched"), "cancel": ("queue",), "ping": ("pong",)}
ANSWER_TYPES = frozenset({"error", "ack", "welcome", "state", "pong", "chat_history", "queue",
                          "matched"})
"""Messages that answer one client message (the others are told to every socket)."""
FUZZ = settings(deadline=None,
                # The examples share a game that moves on: a replay meets another game, so
                # shrinking would chase a different failure. A failure is shown as found.
                phases=[Phase.explicit, Phase.generate],
                # Each example talks to the server: how long it takes says nothing.
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
GAME_EXAMPLES = 50
"""Each of up to 6 messages: about 3 s a database on two busy cores."""
LOBBY_EXAMPLES = 30
"""The lobby's messages have no fields: fewer examples reach all there is to send."""

# ---------------------------------------------------------------------- values

HUGE = st.sampled_from([2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**100, -(2**63) - 1])
ODD_TEXT = st.sampled_from(["\ud800", "x\udc00y", "\x00", "\x7f", "\x85", "é" * 3,
                            "\U0001f600", " ", ""])
"""Strings at the edges: lone surrogates (no text a database stores), control characters,
characters over one byte."""
STRINGS = st.text(max_size=24) | ODD_TEXT
NUMBERS = st.integers() | HUGE | st.floats()
JSON: SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | NUMBERS | STRINGS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(STRINGS, inner, max_size=4),
    max_leaves=12)
NOT_INT = st.sampled_from(["0", "1", True, False, 0.0, 1.5, [0], {}, float("nan")])
"""Not integers to a strict reader, each of them (``true`` is not 1, ``"0"`` is not 0)."""


def _long(low: int, high: int) -> SearchStrategy[str]:
    return st.integers(low, high).map(lambda n: "x" * n)


@dataclass(frozen=True)
class Field:
    """A field of a client message: values its model takes, and values it refuses."""

    valid: SearchStrategy[Any]
    invalid: SearchStrategy[Any]
    required: bool = False


Spec = dict[str, dict[str, Field]]


@dataclass(frozen=True)
class Near:
    """A value read off the game as it stands when the message is sent: the version moved
    by ``pick``, a seat's token, or one of the sender's legal actions. Drawn as a choice, so
    that what hypothesis draws never depends on what the server did."""

    what: str
    pick: int


def near_game(tokens: list[str], version: int, legal: list[dict[str, Any]]
              ) -> Callable[[Near], Any]:
    """What each :class:`Near` stands for in a game at ``version`` whose seats hold
    ``tokens``, from a socket whose view offers ``legal``."""

    def value(near: Near) -> Any:
        if near.what == "version":
            return max(version + near.pick, 0)
        if near.what == "token":
            return tokens[near.pick % len(tokens)]
        if not legal:  # not this socket's turn: the move of another's, or none at all
            return str(EVERY_ACTION[near.pick % len(EVERY_ACTION)])
        entry = legal[near.pick // 2 % len(legal)]
        return entry["notation"] if near.pick % 2 else entry["action"]
    return value


# Near the game's version, and its legal actions, more often than not: the messages the
# server must look at closely (one_of picks each of its branches alike).
_NEAR_VERSION = st.builds(Near, st.just("version"), st.integers(-1, 1))
_VERSIONS = st.one_of(_NEAR_VERSION, _NEAR_VERSION, _NEAR_VERSION, st.just(0),
                      st.integers(min_value=0), HUGE.filter(lambda n: n >= 0))
_LEGAL = st.builds(Near, st.just("legal"), st.integers(0, 99))
_KNOWN = [*EVERY_ACTION, *OUT_OF_TURN_ACTIONS]
_ACTIONS = st.one_of(
    _LEGAL, _LEGAL, _LEGAL,
    st.sampled_from(_KNOWN).map(str), st.sampled_from(_KNOWN).map(lambda a: a.to_json()),
    st.dictionaries(STRINGS, JSON, max_size=3), STRINGS)
ACTION_FIELDS = {
    "action": Field(_ACTIONS, st.none() | NUMBERS | st.lists(STRINGS), True),
    "version": Field(_VERSIONS, st.integers(max_value=-1) | NOT_INT | st.none(), True),
    # The documented rule: 1 to 64 characters, none a control character.
    "client_id": Field(st.text(st.characters(exclude_categories=["Cc", "Cs"]), min_size=1,
                               max_size=64),
                       st.sampled_from(["", "a\nb", "\x00", "\x1f", "\x7f"])
                       | _long(65, 100) | st.integers() | st.none(), True)}
GAME_SPEC: Spec = {
    # app/realtime/protocol.py, as docs/protocol.md says.
    "action": ACTION_FIELDS,
    "join": {"seat": Field(st.none() | st.sampled_from([0, 1]),
                           st.sampled_from([2, -1, 10**30]) | NOT_INT),
             "token": Field(st.none() | st.builds(Near, st.just("token"), st.integers(0, 1))
                            | st.text(max_size=200),
                            _long(201, 300) | st.integers() | st.lists(STRINGS)),
             "last_version": Field(st.none() | _VERSIONS, st.integers(max_value=-1) | NOT_INT)},
    "sync": {"last_version": Field(st.none() | _VERSIONS, st.integers(max_value=-1) | NOT_INT)},
    "chat": {"channel": Field(st.sampled_from(["players", "spectators"]),
                              st.sampled_from(["Players", "all", ""]) | st.integers(), True),
             "text": Field(st.none() | STRINGS | _long(290, 320),
                           _long(2001, 2100) | st.integers() | st.lists(STRINGS)),
             "phrase": Field(st.none() | st.sampled_from(PHRASES) | st.text(max_size=32),
                             _long(33, 60) | st.integers())},
    **{kind: {} for kind in ("ping", "pong", "rematch", "decline_rematch", "resign",
                             "take_back", "accept_take_back", "decline_take_back",
                             "claim_win", "chat_history")},
}
LOBBY_SPEC: Spec = {kind: {} for kind in LOBBY_TYPES}

# ---------------------------------------------------------------------- frames


@dataclass(frozen=True)
class Frame:
    """What a fuzzed client sends: a text frame (JSON or not) or a binary one."""

    data: str | bytes
    shaped: bool = False
    """Made as a message the socket's models accept (its size and its strings aside)."""

    @property
    def message(self) -> dict[str, Any] | None:
        """The JSON object it holds, if it holds one."""
        try:
            value = json.loads(self.data)
        except (ValueError, RecursionError):
            return None
        return value if isinstance(value, dict) else None


def _lone_surrogate(value: Any) -> bool:
    """Whether a string in ``value`` (a key too) holds half of a UTF-16 surrogate pair."""
    stack = [value]  # not recursive: a frame may be nested as deep as JSON reads
    while stack:
        item = stack.pop()
        if isinstance(item, str) and any(0xD800 <= ord(ch) <= 0xDFFF for ch in item):
            return True
        if isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def unreadable(frame: Frame, types: tuple[str, ...]) -> str | None:
    """The error a frame the socket cannot read must get, in the order docs/protocol.md
    gives (None: it is a message the socket reads)."""
    if isinstance(frame.data, bytes):
        return "malformed"
    if len(frame.data.encode("utf-8", "surrogatepass")) > LIMIT:
        return "too_large"
    try:
        value = json.loads(frame.data)
    except (ValueError, RecursionError):  # not JSON, or a number Python will not read
        return "malformed"
    if _lone_surrogate(value) or not isinstance(value, dict):
        return "malformed"
    if value.get("type") not in types:
        return "unknown_type"
    return None if frame.shaped else "malformed"


def _raw(types: tuple[str, ...]) -> SearchStrategy[Frame]:
    """Frames made without the protocol in mind, or at its edges."""
    padded = st.integers(LIMIT - 20, LIMIT + 20).map(
        lambda n: Frame('{"type": "ping"}'.ljust(n), shaped=True))
    return st.one_of(
        st.text(min_size=1, max_size=40).map(Frame),
        st.binary(max_size=40).map(Frame),
        st.sampled_from(["", " ", "null", "{}", '{"type": null}']).map(Frame),
        # Any JSON but a message of a known type (whose shape is _message's business).
        JSON.filter(lambda value: not (isinstance(value, dict) and value.get("type") in types))
        .map(lambda value: Frame(json.dumps(value))),
        st.builds(lambda kind, extra: Frame(json.dumps({**extra, "type": kind})),
                  (st.sampled_from(["ACTION", "Join", "", "hello"]) | JSON)
                  .filter(lambda kind: kind not in types),
                  st.dictionaries(STRINGS, JSON, max_size=2)),
        padded,  # at the size limit, on either side of it
        st.integers(1, 3000).map(lambda n: Frame("[" * n + "]" * n)),  # nested deep
        st.integers(4000, 4400).map(  # integers past Python's 4300-digit limit
            lambda n: Frame('{"type": "sync", "last_version": ' + "9" * n + "}", shaped=True)),
    )


def _message(data: st.DataObject, spec: Spec, near: Callable[[Near], Any]) -> Frame:
    """A message of the spec, valid-shaped, or with one thing wrong: a field left out, an
    unknown field, or a value of the wrong type or range."""
    # Messages with fields more often than those without: there is more to get wrong. The
    # richest first: hypothesis draws the first of a list more often than the others.
    kinds = sorted(spec, key=lambda k: -len(spec[k]))
    kind = data.draw(st.sampled_from([k for k in kinds for _ in range(1 + 3 * len(spec[k]))]),
                     label="type")
    fields = spec[kind]
    message: dict[str, Any] = {"type": kind}
    for name, field in fields.items():
        if field.required or data.draw(st.booleans(), label=f"with {name}"):
            message[name] = data.draw(field.valid, label=name)
    faults = ["none"] * 6 + ["extra"] \
        + (["invalid"] if fields else []) \
        + (["missing"] if any(f.required for f in fields.values()) else [])
    fault = data.draw(st.sampled_from(faults), label="fault")
    if fault == "extra":
        name = data.draw(STRINGS.filter(lambda s: s not in fields and s != "type"))
        message[name] = data.draw(JSON)
    elif fault == "invalid":
        name = data.draw(st.sampled_from(sorted(fields)))
        message[name] = data.draw(fields[name].invalid, label=f"bad {name}")
    elif fault == "missing":
        del message[data.draw(st.sampled_from(sorted(n for n, f in fields.items()
                                                     if f.required)))]
    message = {name: near(value) if isinstance(value, Near) else value
               for name, value in message.items()}
    ascii_only = data.draw(st.booleans(), label="ascii")  # sizes count UTF-8 bytes either way
    text = json.dumps(message, ensure_ascii=ascii_only or _lone_surrogate(message))
    return Frame(text, shaped=fault == "none")


def _frame(data: st.DataObject, spec: Spec, types: tuple[str, ...],
           near: Callable[[Near], Any] = lambda near: near) -> Frame:
    # One in six raw (not 0: hypothesis draws its simplest choice, 0, more often than not).
    if data.draw(st.integers(0, 5), label="raw?") == 5:
        return data.draw(_raw(types), label="raw")
    return _message(data, spec, near)


# ---------------------------------------------------------------------- talking


def exchange(socket: ProtocolClient, frame: Frame, types: tuple[str, ...]
             ) -> list[dict[str, Any]]:
    """Send ``frame``, then a ping: what the server sent up to the ping's pong (the answer
    to the frame, and what it told every socket meanwhile). A close fails the test."""
    # A fuzzed ping has a pong of its own: the ping sent after it is answered second.
    pongs = 2 if unreadable(frame, types) is None and frame.message == {"type": "ping"} else 1
    start = len(socket.inbox)
    try:
        if isinstance(frame.data, bytes):
            socket.ws.send_bytes(frame.data)
        else:
            socket.ws.send_text(frame.data)
        socket.send({"type": "ping"})
        for _ in range(pongs):
            socket.receive_until("pong")
    except WebSocketDisconnect as closed:
        pytest.fail(f"the socket was closed ({closed.code}) after {frame.data!r:.300}")
    return socket.inbox[start:-1]


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


def check_answer(frame: Frame, replies: list[dict[str, Any]], types: tuple[str, ...],
                 answers: dict[str, tuple[str, ...]]) -> list[dict[str, Any]]:
    """The frame was answered as the protocol says: the errors among ``replies``."""
    said = [m for m in replies if m["type"] in ANSWER_TYPES]
    errors = [m for m in said if m["type"] == "error"]
    expected = unreadable(frame, types)
    where = f"{frame.data!r:.300} got {said}"
    if expected is not None:
        assert len(said) == 1 and said[0]["type"] == "error", where
        assert said[0]["code"] == expected and "client_id" not in said[0], where
        return errors
    message = frame.message
    assert message is not None
    kind = message["type"]
    assert len(said) <= 1, where
    for error in errors:
        assert error["code"] not in UNREADABLE - {"malformed"}, where
        # Read, then refused as malformed by what looks into it: only the engine's "not an
        # action at all" (naming the action refused) and the chat's unknown phrase.
        assert error["code"] != "malformed" or kind == "chat" \
            or (kind == "action" and "client_id" in error), where
    if kind in answers:
        assert len(said) == 1 and said[0]["type"] in (*answers[kind], "error"), where
    else:
        assert errors == said, where
    if kind == "action":
        assert said[0].get("client_id") == message["client_id"], where
    return errors


# ---------------------------------------------------------------------- the game socket


async def _stored(engine: AsyncEngine, game_id: str) -> tuple[dict[str, Any], list[Any]]:
    """The game's row (but when it was last touched) and its log, as stored."""
    async with engine.connect() as connection:
        row = (await connection.execute(
            select(GameRow.__table__).where(GameRow.id == game_id))).mappings().one()
        log = (await connection.execute(
            select(GameAction.__table__).where(GameAction.game_id == game_id)
            .order_by(GameAction.seq))).all()
    return {k: v for k, v in row.items() if k != "updated_at"}, [tuple(r) for r in log]


_move_ids = itertools.count(1)


def _move(data: st.DataObject, socket: ProtocolClient, version: int) -> Frame:
    """One of the socket's legal actions (as its view lists them) at the game's version;
    once the game is over, an action all the same."""
    pick = data.draw(st.integers(0, 99), label="move")
    legal = [entry["notation"] for entry in (socket.view or {}).get("legal_actions", [])]
    action = legal[pick % len(legal)] if legal else str(EVERY_ACTION[pick])
    return Frame(json.dumps({"type": "action", "action": action, "version": version,
                             "client_id": f"move-{next(_move_ids)}"}), shaped=True)


class GameTable:
    """A started game (the first game's wonders, seat 0 to act) with each seat, a spectator
    and one socket not joined yet, from the browsers of Ann (seat 0), Bob (seat 1) and a
    visitor."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.browsers = [browser(client) for _ in range(3)]
        player(self.browsers[0], "Ann")
        player(self.browsers[1], "Bob")
        self.sockets: list[ProtocolClient] = []
        self.fresh: ProtocolClient | None = None
        self.deal()

    def deal(self) -> None:
        """A new game at the table (the sockets of the last one closed)."""
        for socket in self.all_sockets():
            socket.close()
        created, joined = new_game(self.browsers[0], joiner=self.browsers[1],
                                   wonder_selection="first_game", first_player="creator")
        self.game_id: str = created["game_id"]
        self.tokens: list[str] = [created["token"], joined["token"]]
        self.sockets = [ProtocolClient(b, self.game_id, timeout=TIMEOUT) for b in self.browsers]
        for seat, socket in enumerate(self.sockets[:2]):
            assert socket.join(seat, self.tokens[seat])["type"] == "welcome"
        assert self.sockets[2].join()["type"] == "welcome"
        self.fresh = None

    def open_fresh(self, opener: int) -> ProtocolClient:
        """The socket not joined yet (a new one, once the last one joined)."""
        if self.fresh is not None and self.fresh.view is not None:
            self.fresh.close()
            self.fresh = None
        if self.fresh is None:
            self.fresh = ProtocolClient(self.browsers[opener], self.game_id, timeout=TIMEOUT)
        return self.fresh

    def stored(self) -> tuple[dict[str, Any], list[Any]]:
        app = self.client.app
        assert isinstance(app, FastAPI) and self.client.portal is not None
        return self.client.portal.call(_stored, app.state.engine, self.game_id)

    def all_sockets(self) -> Iterator[ProtocolClient]:
        yield from self.sockets
        if self.fresh is not None:
            yield self.fresh


def test_the_game_socket_survives_fuzzing(make_app: Callable[..., FastAPI],
                                          caplog: pytest.LogCaptureFixture) -> None:
    with serve(make_app(**QUIET)) as client:
        table = GameTable(client)

        @settings(FUZZ, max_examples=GAME_EXAMPLES)
        @given(st.data())
        def fuzz(data: st.DataObject) -> None:
            before = table.stored()
            if before[0]["status"] != "active":  # a fuzzed message ended it
                table.deal()
                before = table.stored()
            fresh = table.open_fresh(data.draw(st.integers(0, 2), label="opened by"))
            for _ in range(data.draw(st.integers(1, 6), label="messages")):
                sockets = [*table.sockets, fresh]
                if data.draw(st.integers(0, 3), label="move?") == 3:
                    # A move as the game expects it, now and then: the game moves on, and
                    # the fuzz meets it in its later phases.
                    socket = table.sockets[before[0]["to_act"] or 0]
                    frame = _move(data, socket, before[0]["version"])
                else:
                    socket = sockets[data.draw(st.sampled_from(range(4)), label="from")]
                    near = near_game(table.tokens, before[0]["version"],
                                     (socket.view or {}).get("legal_actions", []))
                    frame = _frame(data, GAME_SPEC, CLIENT_TYPES, near)
                replies = exchange(socket, frame, CLIENT_TYPES)
                errors = check_answer(frame, replies, CLIENT_TYPES, GAME_ANSWERS)
                after = table.stored()
                if errors:  # refusals change nothing
                    assert after == before, f"{frame.data!r:.300} refused with {errors}"
                version = before[0]["version"]
                if after[0]["version"] == version:
                    assert after[1] == before[1], frame.data
                else:  # one action, told to the sender
                    assert after[0]["version"] == version + 1, frame.data
                    assert [m["version"] for m in replies if m["type"] == "update"] \
                        == [version + 1], (frame.data, replies)
                for other in sockets:  # what the others were told, read now
                    if other is not socket:
                        other.barrier()
                assert not errors_logged(caplog), (frame.data, errors_logged(caplog))
                before = after

        fuzz()
        assert not errors_logged(caplog), caplog.text


# ---------------------------------------------------------------------- the lobby socket


def test_the_lobby_socket_survives_fuzzing(make_app: Callable[..., FastAPI],
                                           caplog: pytest.LogCaptureFixture) -> None:
    """Ann with two tabs, Bob and a visitor without a name on the lobby socket: quick match
    pairs, replaces and cancels as they press, and nothing they send breaks it."""
    with serve(make_app(**QUIET)) as client:
        ann, bob, visitor = browser(client), browser(client), browser(client)
        player(ann, "Ann")
        player(bob, "Bob")
        sockets = [LobbyClient(b, timeout=TIMEOUT) for b in (ann, ann, bob, visitor)]
        app = client.app
        assert isinstance(app, FastAPI) and client.portal is not None
        queue = app.state.quick_match
        portal = client.portal

        @settings(FUZZ, max_examples=LOBBY_EXAMPLES)
        @given(st.data())
        def fuzz(data: st.DataObject) -> None:
            for _ in range(data.draw(st.integers(1, 6), label="messages")):
                socket = sockets[data.draw(st.sampled_from(range(len(sockets))), label="from")]
                before = portal.call(queue.waiting)
                frame = _frame(data, LOBBY_SPEC, LOBBY_TYPES)
                replies = exchange(socket, frame, LOBBY_TYPES)
                if check_answer(frame, replies, LOBBY_TYPES, LOBBY_ANSWERS):
                    assert portal.call(queue.waiting) == before, frame.data
                for other in sockets:
                    if other is not socket:
                        other.barrier()
                assert not errors_logged(caplog), (frame.data, errors_logged(caplog))

        fuzz()
        assert not errors_logged(caplog), caplog.text
