"""The WebSocket protocol: what clients may send (validated with pydantic) and the
messages the server sends. ``docs/protocol.md`` describes it for client authors."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from app.engine import Game, events_for, view

AUDIENCES = ("0", "1", "spectator")
"""Who an update is rendered for: each seat, and everyone else."""


class _Message(BaseModel):
    # Strict: "0" is not a version and false is not a seat.
    model_config = ConfigDict(extra="forbid", strict=True)


class Join(_Message):
    """First message on a socket: a seat with its token, or nothing to watch."""

    type: Literal["join"]
    seat: int | None = Field(default=None, ge=0, le=1)
    token: str | None = Field(default=None, max_length=200)
    last_version: int | None = Field(default=None, ge=0)
    """The last version this client saw, to receive only what it missed."""


class Act(_Message):
    type: Literal["action"]
    action: dict[str, Any] | str
    """The action's JSON form or its notation."""
    version: int = Field(ge=0)
    """The version the client saw when it chose the action."""
    client_id: str = Field(min_length=1, max_length=64)
    """The client's own id for this action: sent again, it is applied once."""


class Sync(_Message):
    type: Literal["sync"]
    last_version: int | None = Field(default=None, ge=0)


class Ping(_Message):
    type: Literal["ping"]


class Pong(_Message):
    type: Literal["pong"]


ClientMessage = Annotated[Join | Act | Sync | Ping | Pong, Field(discriminator="type")]
_CLIENT_MESSAGE: TypeAdapter[Join | Act | Sync | Ping | Pong] = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("join", "action", "sync", "ping", "pong")


class ProtocolError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_client_message(data: Any) -> Join | Act | Sync | Ping | Pong:
    """Validate a decoded JSON message; ``unknown_type`` or ``malformed`` otherwise."""
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message must be a JSON object")
    if data.get("type") not in CLIENT_TYPES:
        raise ProtocolError("unknown_type",
                            f"unknown message type {data.get('type')!r}; expected one of "
                            f"{', '.join(CLIENT_TYPES)}")
    try:
        return _CLIENT_MESSAGE.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        raise ProtocolError("malformed", f"{where}: {first['msg']}") from None


def error_message(code: str, message: str, *, client_id: str | None = None,
                  detail: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if client_id is not None:
        out["client_id"] = client_id
    if detail is not None:
        out["detail"] = detail
    return out


def _seat_of(audience: str) -> int | None:
    return None if audience == "spectator" else int(audience)


def render_updates(game: Game, version: int, *, seat: int, action: dict[str, Any],
                   notation: str, events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """After an action is committed: the update each audience receives, each with its own
    view at ``version`` and the events as it may see them."""
    return {
        audience: {
            "type": "update", "version": version, "seat": seat, "action": action,
            "notation": notation, "events": events_for(events, _seat_of(audience)),
            "view": view(game, _seat_of(audience)),
        }
        for audience in AUDIENCES
    }


def state_message(kind: str, game: Game, version: int, seat: int | None, *,
                  missed: list[list[dict[str, Any]]] | None = None,
                  from_version: int | None = None) -> dict[str, Any]:
    """The full state for one client (``welcome`` after a join, ``state`` after a sync):
    its view at ``version`` and, when it said what it last saw, the events it missed."""
    out: dict[str, Any] = {"type": kind, "version": version, "seat": seat,
                           "view": view(game, seat)}
    if missed is not None and from_version is not None:
        out["missed"] = [
            {"version": from_version + i + 1, "events": events_for(events, seat)}
            for i, events in enumerate(missed)
        ]
    return out
