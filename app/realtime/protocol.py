"""The WebSocket protocol: what clients may send (validated with pydantic) and the
messages the server sends. ``docs/protocol.md`` describes it for client authors."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, TypeVar, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from app import jsontext
from app.codes import error_params
from app.engine import Event, Game, events_for, view
from app.services.errors import ServiceError

from . import messages
from .messages import ClockState, Error, FirstMove, Missed, Update

_T = TypeVar("_T")

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
    client_id: str = Field(min_length=1, max_length=64, pattern=r"^[^\x00-\x1f\x7f-\x9f]+$")
    """The client's own id for this action: sent again, it is applied once."""


class Sync(_Message):
    type: Literal["sync"]
    last_version: int | None = Field(default=None, ge=0)


class Ping(_Message):
    type: Literal["ping"]


class Pong(_Message):
    type: Literal["pong"]


class Rematch(_Message):
    """After the game: offer a rematch, or accept the other seat's offer."""

    type: Literal["rematch"]


class DeclineRematch(_Message):
    """Decline the other seat's rematch offer, or withdraw one's own."""

    type: Literal["decline_rematch"]


class Resign(_Message):
    """Resign: the other seat wins, whoever is to act."""

    type: Literal["resign"]


class ClaimWin(_Message):
    """Claim the win from an opponent who left (no socket for ``DUEL_ABANDON_AFTER`` s)."""

    type: Literal["claim_win"]


class OfferTakeBack(_Message):
    """Ask the other seat to let one's last action be taken back."""

    type: Literal["take_back"]


class AcceptTakeBack(_Message):
    """Let the other seat take its last action back."""

    type: Literal["accept_take_back"]


class DeclineTakeBack(_Message):
    """Decline the other seat's take-back, or withdraw one's own offer."""

    type: Literal["decline_take_back"]


class Chat(_Message):
    """A chat message: ``text`` or a quick ``phrase`` (a code), on the players' channel (a
    seat) or the spectators' (a spectator)."""

    type: Literal["chat"]
    channel: Literal["players", "spectators"]
    text: str | None = Field(default=None, max_length=2000)
    phrase: str | None = Field(default=None, max_length=32)


class Abort(_Message):
    """Abort the game (no result, no rating change): while neither seat, or only one, has
    made a decision of its own; or, the creator of a game still waiting, cancel it."""

    type: Literal["abort"]


class ChatHistory(_Message):
    """Ask for the chat so far (the latest messages this socket may read)."""

    type: Literal["chat_history"]


SeatRequest = Rematch | DeclineRematch | Resign | OfferTakeBack | AcceptTakeBack \
    | DeclineTakeBack | ClaimWin | Abort
"""What only a seat may ask, besides its actions."""
ClientMessage = Join | Act | Sync | Ping | Pong | SeatRequest | Chat | ChatHistory
_CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")])
CLIENT_TYPES = ("join", "action", "sync", "ping", "pong", "rematch", "decline_rematch",
                "resign", "take_back", "accept_take_back", "decline_take_back", "claim_win",
                "abort", "chat", "chat_history")


class ProtocolError(Exception):
    """A message the server cannot read: a ``code`` of :data:`app.codes.ERRORS` with its
    ``params``, and an English ``message`` for logs."""

    def __init__(self, code: str, message: str, params: Mapping[str, Any] | None = None
                 ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = error_params(code, params)


class Play(_Message):
    """Lobby: join the quick-match queue."""

    type: Literal["play"]
    rated: bool = False
    """A rated game: accounts only, paired with another player who asked for one."""


class Cancel(_Message):
    """Lobby: leave the quick-match queue."""

    type: Literal["cancel"]


LobbyMessage = Play | Cancel | Ping | Pong
_LOBBY_MESSAGE: TypeAdapter[LobbyMessage] = TypeAdapter(
    Annotated[LobbyMessage, Field(discriminator="type")])
LOBBY_TYPES = ("play", "cancel", "ping", "pong")


SOCKETS: dict[str, dict[str, tuple[type[BaseModel], ...]]] = {
    "game": {"client": (Join, Act, Sync, Ping, Pong, Rematch, DeclineRematch, Resign,
                        OfferTakeBack, AcceptTakeBack, DeclineTakeBack, ClaimWin, Abort, Chat,
                        ChatHistory),
             "server": messages.GAME_MESSAGES},
    "lobby": {"client": (Play, Cancel, Ping, Pong), "server": messages.LOBBY_MESSAGES},
}
"""Every message of each socket (``/ws/games/{id}``, ``/ws/lobby``), each way."""


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of every socket message (``GET /api/protocol.schema.json``).
    ``$defs`` holds one union per socket and direction (``game.client``,
    ``game.server``, ``lobby.client``, ``lobby.server``), discriminated by ``type``;
    a message of either socket, either way, matches the document itself."""
    defs: dict[str, Any] = {}
    for socket, directions in SOCKETS.items():
        for direction, models in directions.items():
            name = f"{socket}.{direction}"
            union: Any = Annotated[Union[models], Field(discriminator="type")]  # noqa: UP007
            schema = TypeAdapter(union).json_schema(
                mode="validation" if direction == "client" else "serialization",
                ref_template=f"#/$defs/{name}.{{model}}")
            defs.update({f"{name}.{model}": part
                         for model, part in schema.pop("$defs", {}).items()})
            sender = "a client" if direction == "client" else "the server"
            defs[name] = {"description": f"What {sender} sends on the {socket} socket.",
                          **schema}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Duel, online: the WebSocket protocol",
        "description": "docs/protocol.md (game sockets) and docs/lobby.md (the lobby socket) "
                       "say what each message means.",
        "anyOf": [{"$ref": f"#/$defs/{socket}.{direction}"}
                  for socket, directions in SOCKETS.items() for direction in directions],
        "$defs": defs,
    }


def decode(text: str) -> Any:
    """A text frame's JSON; ``malformed`` when it is not JSON, or nested too deeply for
    the decoder (which would otherwise fail with a ``RecursionError``)."""
    try:
        return jsontext.loads(text)
    except json.JSONDecodeError as error:
        raise ProtocolError("malformed", f"not JSON: {error.msg}") from None
    except RecursionError:
        raise ProtocolError("malformed", "not JSON this server reads: nested too deeply"
                            ) from None
    except jsontext.LoneSurrogateError:
        raise ProtocolError("malformed", "a string holds a lone UTF-16 surrogate (an "
                            "escape such as \\ud800 without its pair)") from None
    except ValueError:  # an integer over Python's 4300-digit limit, say
        raise ProtocolError("malformed", "not JSON this server reads: a value is too large"
                            ) from None


def parse_client_message(data: Any) -> ClientMessage:
    """Validate a decoded JSON message on a game socket; ``unknown_type`` or
    ``malformed`` otherwise."""
    return _parse(data, _CLIENT_MESSAGE, CLIENT_TYPES)


def parse_lobby_message(data: Any) -> LobbyMessage:
    """Validate a decoded JSON message on the lobby socket."""
    return _parse(data, _LOBBY_MESSAGE, LOBBY_TYPES)


def _parse(data: Any, adapter: TypeAdapter[_T], types: tuple[str, ...]) -> _T:
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message must be a JSON object")
    if data.get("type") not in types:
        raise ProtocolError("unknown_type",
                            f"unknown message type {data.get('type')!r}; expected one of "
                            f"{', '.join(types)}")
    try:
        return adapter.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        raise ProtocolError("malformed", f"{where}: {first['msg']}", {"field": where}
                            ) from None


def error_message(code: str, message: str, *, params: Mapping[str, Any] | None = None,
                  client_id: str | None = None, detail: str | None = None) -> Error:
    """An ``error`` message: ``code`` and ``params`` for the client to word (both listed in
    :data:`app.codes.ERRORS`), ``message`` in English for logs; ``detail`` (the engine's
    code of an illegal action) is among the params too."""
    return Error(code=code, message=message, params=error_params(code, params, detail),
                 client_id=client_id, detail=detail)


def refusal_message(error: ServiceError | ProtocolError, *,
                    client_id: str | None = None) -> Error:
    """The ``error`` message of a refusal."""
    return error_message(error.code, error.message, params=error.params, client_id=client_id,
                         detail=getattr(error, "detail", None))


def _seat_of(audience: str) -> int | None:
    return None if audience == "spectator" else int(audience)


def render_updates(game: Game, version: int, *, seat: int, action: dict[str, Any],
                   notation: str, events: list[Event],
                   audiences: Iterable[str] = AUDIENCES,
                   clock: dict[str, Any] | None = None, abortable: bool = False,
                   first_move: dict[str, Any] | None = None) -> dict[str, Update]:
    """After an action is committed: the update each of ``audiences`` receives (each seat,
    spectators), each with its own view at ``version`` and the events as it may see them,
    and what is the same for everyone: a timed game's ``clock``, whether the game may
    still be aborted, and the next seat's ``first_move`` deadline."""
    return {
        audience: Update(version=version, seat=seat, action=action, notation=notation,
                         events=events_for(events, _seat_of(audience)),
                         view=view(game, _seat_of(audience)),
                         clock=None if clock is None else ClockState(**clock),
                         abortable=True if abortable else None,
                         first_move=None if first_move is None else FirstMove(**first_move))
        for audience in audiences
    }


def state_parts(game: Game, version: int, seat: int | None, *,
                missed: list[list[Event]] | None = None,
                from_version: int | None = None) -> dict[str, Any]:
    """What a ``welcome`` or a ``state`` tells of the game itself: its view for ``seat`` at
    ``version`` and, when the client said what it last saw, the events it missed."""
    out: dict[str, Any] = {"version": version, "seat": seat, "view": view(game, seat)}
    if missed is not None and from_version is not None:
        out["missed"] = [
            Missed(version=from_version + i + 1, events=events_for(events, seat))
            for i, events in enumerate(missed)
        ]
    return out
