"""The typed protocol: the served JSON Schema, the documents that describe it, and the
messages a real game sends, all saying the same thing."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Union, get_args

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field, TypeAdapter

from app.realtime.messages import LobbyEntry, SeatEntry
from app.realtime.protocol import SOCKETS, protocol_schema
from tests.factories import Table, serve

pytestmark = pytest.mark.one_database  # the messages' shapes: no storage in it

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _type_of(model: type[BaseModel]) -> str:
    (kind,) = get_args(model.model_fields["type"].annotation)
    return str(kind)


def _fields(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields) - {"type"}


def _table(markdown: str, heading: str, fields_column: int) -> dict[str, str]:
    """The rows of the first table under ``heading``: the message type of each row (its
    first cell), and the cell that lists its fields."""
    section = markdown.split(heading, 1)[1]
    rows: dict[str, str] = {}
    started = False
    for line in section.splitlines():
        if not line.startswith("|"):
            if started:
                break
            continue
        started = True
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        first = re.fullmatch(r"`(\w+)`", cells[0])
        if first and first.group(1) != "type":  # not the header
            rows[first.group(1)] = cells[fields_column]
    return rows


def _named(cell: str) -> set[str]:
    return set(re.findall(r"`([a-z_]+)`", cell))


def _check_table(rows: dict[str, str], models: tuple[type[BaseModel], ...]) -> None:
    assert set(rows) == {_type_of(m) for m in models}, "the table lists other messages"
    by_type = {_type_of(m): m for m in models}
    for kind, cell in rows.items():
        same_as = re.fullmatch(r"as `(\w+)`", cell)
        documented = _named(rows[same_as.group(1)]) if same_as else _named(cell)
        assert documented == _fields(by_type[kind]), (kind, documented)


def test_the_game_socket_s_tables_list_every_message_with_its_fields() -> None:
    protocol = (DOCS / "protocol.md").read_text()
    _check_table(_table(protocol, "### Client messages", 1), SOCKETS["game"]["client"])
    _check_table(_table(protocol, "### Server messages", 2), SOCKETS["game"]["server"])


def test_the_lobby_document_shows_every_lobby_message_with_its_fields() -> None:
    lobby = (DOCS / "lobby.md").read_text()
    for direction in ("client", "server"):
        for model in SOCKETS["lobby"][direction]:
            kind = _type_of(model)
            if kind == "error":  # the game socket's, described in protocol.md
                continue
            shown = [m.group(0) for m in re.finditer(
                r'\{"type": "' + kind + r'"[^`]*', lobby)]
            assert shown, f"no example of {kind} in docs/lobby.md"
            keys = set(re.findall(r'"(\w+)":', " ".join(shown))) - {"type"}
            assert _fields(model) <= keys, (kind, keys)
    # The entry's example is the model's, field for field.
    entry = json.loads(re.search(r'```json\n(\{"game_id".*?)\n```', lobby, re.S).group(1))
    assert set(entry) == set(LobbyEntry.model_fields)
    assert all(set(seat) == set(SeatEntry.model_fields) for seat in entry["seats"])


def test_the_schema_is_served_and_names_every_message(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app()) as client:
        answer = client.get("/api/protocol.schema.json")
    assert answer.status_code == 200
    schema = answer.json()
    assert schema == json.loads(json.dumps(protocol_schema()))
    for socket, directions in SOCKETS.items():
        for direction, models in directions.items():
            union = schema["$defs"][f"{socket}.{direction}"]
            assert set(union["discriminator"]["mapping"]) == {_type_of(m) for m in models}
    welcome = schema["$defs"]["game.server.Welcome"]
    assert "missed" in welcome["properties"] and "missed" not in welcome["required"]
    assert {"version", "seat", "view", "status", "rematch"} <= set(welcome["required"])
    # Left out when it does not apply, never null.
    assert welcome["properties"]["abort_reason"] == {
        "type": "string", "description": "Why an admin aborted the game.",
        "title": "Abort Reason"}


def _server_messages(socket: str) -> TypeAdapter[Any]:
    models = SOCKETS[socket]["server"]
    return TypeAdapter(Annotated[Union[models], Field(discriminator="type")])  # noqa: UP007


def test_what_a_game_sends_is_what_the_schema_says(make_app: Callable[..., FastAPI]) -> None:
    """Every message of a game played over two sockets and watched by a third reads back
    as its model, field for field: nothing the model lacks, nothing it has left out."""
    adapter = _server_messages("game")
    with serve(make_app()) as client:
        table = Table.open(client, timeout=10.0, wonder_selection="draft")
        chooser = random.Random(3)
        for _ in range(12):
            table.step(chooser)
        refusal = table.spectator.act("discard:lumber_yard", client_id="nope")
        assert refusal["code"] == "spectator"
        kinds = set()
        for socket in (*table.seats, table.spectator):
            socket.barrier()
            for received in socket.inbox:
                message = adapter.validate_python(received)
                assert json.loads(message.encode()) == received
                kinds.add(message.type)
        table.close()
    assert {"welcome", "update", "ack", "presence", "error", "pong"} <= kinds
