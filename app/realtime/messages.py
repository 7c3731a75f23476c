"""What the server sends on its sockets: one pydantic model per message type.

These models are the protocol's definition: ``GET /api/protocol.schema.json`` serves their
JSON Schema (with the client messages of :mod:`app.realtime.protocol`), and a test checks
``docs/protocol.md`` and ``docs/lobby.md`` against it. An optional field is left out of the
JSON when it does not apply (``exclude_if``), never sent as ``null``; a field that may be
``null`` (a spectator's ``seat``) is always sent.

The game's views and events are the engine's JSON (``docs/engine.md``): carried as they
are, not described again here.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


# Values read from the database are described, not enforced: a value a newer release
# writes (during a rolling deploy) must not break every socket of an older one.
def _status() -> Any:
    return Field(description="waiting, active, finished, aborted or imported")


def _absent(value: object) -> bool:
    return value is None


def _optional(description: str) -> Any:
    """A field sent only when it applies."""
    return Field(default=None, exclude_if=_absent, description=description)


def _required_as_sent(schema: dict[str, Any], model: type[BaseModel]) -> None:
    # Every field is sent but the optional ones, ``type`` (which has a default) included;
    # an optional one is left out rather than sent as null.
    schema["required"] = []
    for name, field in model.model_fields.items():
        if field.exclude_if is None:
            schema["required"].append(name)
            continue
        sent = schema["properties"][name]
        sent.pop("default", None)
        kinds = [kind for kind in sent.pop("anyOf", []) if kind != {"type": "null"}]
        if kinds:
            sent.update(kinds[0] if len(kinds) == 1 else {"anyOf": kinds})


class ServerMessage(BaseModel):
    """A message the server sends. ``encode`` gives its JSON text."""

    model_config = ConfigDict(extra="forbid", frozen=True,
                              json_schema_extra=_required_as_sent)
    type: str

    def encode(self) -> str:
        return self.model_dump_json()


# ---------------------------------------------------------------------- on either socket

class Ping(ServerMessage):
    """A heartbeat: answer ``pong``."""

    type: Literal["ping"] = "ping"


class Pong(ServerMessage):
    """The answer to the client's ``ping``."""

    type: Literal["pong"] = "pong"


class Error(ServerMessage):
    """A refused message: it changed nothing."""

    type: Literal["error"] = "error"
    code: str = Field(description="What happened, for the client to word (app/codes.py).")
    params: dict[str, Any] = Field(description="The figures of that code.")
    message: str = Field(description="English, for logs.")
    client_id: str | None = _optional("The refused action's client id.")
    detail: str | None = _optional("The engine's code of an illegal action.")


# ---------------------------------------------------------------------- on a game socket

class RematchState(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    offered_by: int | None = Field(description="The seat offering a rematch, if one is.")
    game_id: str | None = Field(description="The rematch game, once it started.")


class FirstMove(BaseModel):
    """The seat to act's first decision, which has a deadline of its own: missed, the
    game is aborted (docs/protocol.md, "Fair starts")."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seat: int = Field(description="The seat making its first decision.")
    remaining: int = Field(description="Milliseconds left to make it, as the message is "
                                       "sent.")


class ClockState(BaseModel):
    """A timed game's clocks as the message is sent."""

    model_config = ConfigDict(extra="forbid", frozen=True,
                              json_schema_extra=_required_as_sent)
    remaining: tuple[int, int] = Field(description="Milliseconds each seat has left.")
    running: int | None = Field(description="The seat whose clock runs (the seat to act); "
                                            "null during a seat's first decision (its "
                                            "clock does not run) and once the game is "
                                            "over.")
    control: dict[str, Any] | None = _optional(
        "In a welcome or a state: the time control, {kind: fischer, minutes, increment} or "
        "{kind: correspondence, days}.")


class Missed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    version: int
    events: list[dict[str, Any]]


class _Snapshot(ServerMessage):
    version: int = Field(description="The game's version.")
    seat: int | None = Field(description="The socket's seat; null for a spectator.")
    view: dict[str, Any] = Field(description="The engine's view for that seat.")
    status: str = _status()
    rematch: RematchState
    missed: list[Missed] | None = _optional(
        "The events of each action after the client's last_version, oldest first.")
    abort_reason: str | None = _optional("Why an admin aborted the game.")
    abort_cause: str | None = _optional(
        "An aborted game: admin, player (a seat aborted it), first_move (a seat missed its "
        "first decision) or cancelled (its creator cancelled it while it waited).")
    abort_seat: int | None = _optional("The seat that aborted the game, cancelled it or "
                                       "missed its first decision.")
    abortable: bool | None = _optional(
        "true while the game may be aborted by either player (neither has made a "
        "decision of their own yet, or only one has).")
    first_move: FirstMove | None = _optional(
        "The seat to act's first decision, while it has a deadline.")
    take_back_offer: int | None = _optional(
        "The seat asking to take its last action back, if one is.")
    clock: ClockState | None = _optional("A timed game's clocks.")
    claim_after: float | None = _optional(
        "A game in play, played live: seconds an opponent must have been away before the "
        "win may be claimed (claim_win).")


class Welcome(_Snapshot):
    """The answer to a ``join``: the socket's first message of the server's own accord."""

    type: Literal["welcome"] = "welcome"


class State(_Snapshot):
    """The full state again: the answer to a ``sync``, or unasked after a gap."""

    type: Literal["state"] = "state"


class Update(ServerMessage):
    """An action was committed."""

    type: Literal["update"] = "update"
    version: int = Field(description="The game's version with the action.")
    seat: int = Field(description="Who played it.")
    action: dict[str, Any] = Field(description="The action's JSON form.")
    notation: str
    events: list[dict[str, Any]] = Field(description="Its events as this audience sees them.")
    view: dict[str, Any] = Field(description="The receiver's view at this version.")
    clock: ClockState | None = _optional("A timed game's clocks once the action was made.")
    abortable: bool | None = _optional("true while the game may still be aborted.")
    first_move: FirstMove | None = _optional(
        "The seat to act next makes its first decision, by a deadline.")


class Ack(ServerMessage):
    """The sender's action is in the game."""

    type: Literal["ack"] = "ack"
    client_id: str
    version: int = Field(description="The version the action produced.")
    duplicate: bool = Field(description="It had been applied before under this client id.")


class Presence(ServerMessage):
    """Who is connected to the game, over every server process."""

    type: Literal["presence"] = "presence"
    seats: tuple[bool, bool] = Field(description="Whether each seat has a socket.")
    spectators: int


class Rematch(ServerMessage):
    """A rematch offered, accepted (``game_id``) or declined."""

    type: Literal["rematch"] = "rematch"
    offered_by: int | None
    game_id: str | None
    declined_by: int | None = _optional("The seat that declined or withdrew the offer.")


class TakeBackOffer(ServerMessage):
    """A take-back asked for (``offered_by``), or declined or withdrawn. An accepted one
    is an ``update`` (its action ``take_back``), which also ends any offer."""

    type: Literal["take_back"] = "take_back"
    offered_by: int | None
    version: int = Field(description="The game's version the offer is for: an older one "
                                     "has lapsed (an action came since).")
    declined_by: int | None = _optional("The seat that declined or withdrew the offer.")


class ChatEntry(BaseModel):
    """One chat message."""

    model_config = ConfigDict(extra="forbid", frozen=True,
                              json_schema_extra=_required_as_sent)
    id: int = Field(description="Its number in the game's chat: later ones are larger.")
    channel: str = Field(description="players or spectators")
    seat: int | None = Field(description="The sender's seat; null for a spectator.")
    name: str | None = Field(description="The sender's name, if known.")
    at: str = Field(description="When it was sent (ISO 8601, UTC).")
    text: str | None = _optional("What was written: plain text, never markup.")
    phrase: str | None = _optional("A quick phrase's code, for the page to word.")


class ChatLine(ServerMessage):
    """A chat message, to every socket that may read its channel."""

    type: Literal["chat"] = "chat"
    message: ChatEntry


class ChatSoFar(ServerMessage):
    """The answer to ``chat_history``: the latest messages, oldest first."""

    type: Literal["chat_history"] = "chat_history"
    messages: list[ChatEntry]


class Aborted(ServerMessage):
    """The game was aborted: no result, no rating change."""

    type: Literal["aborted"] = "aborted"
    reason: str | None = Field(description="An admin's words; null otherwise.")
    cause: str = Field(description="admin, player (a seat aborted it), first_move (a seat "
                                   "missed its first decision) or cancelled (its creator "
                                   "cancelled it while it waited).")
    seat: int | None = _optional("The seat that aborted, cancelled, or missed its first "
                                 "decision.")


class Expired(ServerMessage):
    """Nobody joined the game within ``hours`` of its creation: it is over unplayed."""

    type: Literal["expired"] = "expired"
    hours: float


# ---------------------------------------------------------------------- on the lobby socket

class PlayerInfo(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    player_id: str
    name: str


class SeatEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True,
                              json_schema_extra=_required_as_sent)
    seat: int
    taken: bool
    name: str | None
    username: str | None = _optional("An account holds the seat: its username (its "
                                     "profile is /players/{username}).")
    rating: int | None = _optional("That account's rating now (rounded).")
    provisional: bool | None = _optional("Its rating is provisional (few rated games).")
    computer: str | None = Field(description="The computer's level when it plays the "
                                             "seat; null for a person.")


class LobbyEntry(BaseModel):
    """One game as the lobby lists it."""

    model_config = ConfigDict(extra="forbid", frozen=True,
                              json_schema_extra=_required_as_sent)
    game_id: str
    status: str = _status()
    origin: str = Field(description="invite, lobby, quick_match, rematch, import or computer")
    options: dict[str, Any]
    version: int
    to_act: int | None
    winner: int | None
    victory: str | None
    time_control: dict[str, Any] | None = Field(description="null: untimed.")
    rated: bool = Field(description="Between two accounts; the result moves ratings.")
    clock: ClockState | None = _optional("A timed game in progress: its clocks.")
    created_at: str
    updated_at: str
    seats: list[SeatEntry]
    my_seat: int | None = _optional("In ``mine`` only: the viewer's seat.")


class Lobby(ServerMessage):
    """The lobby's picture: sent first, then whenever it changes."""

    type: Literal["lobby"] = "lobby"
    player: PlayerInfo | None = Field(description="The player session; null without one.")
    open: list[LobbyEntry] = Field(description="Listed games waiting for a second player.")
    live: list[LobbyEntry] = Field(description="Listed games in progress, to watch.")
    mine: list[LobbyEntry] = Field(description="The player's own games.")


class Queue(ServerMessage):
    """Where the player stands in quick match."""

    type: Literal["queue"] = "queue"
    state: Literal["waiting", "idle"]
    rated: bool | None = _optional("Waiting: for a rated game (between accounts).")
    reason: Literal["replaced"] | None = _optional(
        "Idle because the same player took a place from another tab.")


class Matched(ServerMessage):
    """Quick match found an opponent: the game to open, and the seat held there."""

    type: Literal["matched"] = "matched"
    game_id: str
    seat: int


GAME_MESSAGES: tuple[type[ServerMessage], ...] = (
    Welcome, State, Update, Ack, Presence, Rematch, TakeBackOffer, ChatLine, ChatSoFar, Aborted,
    Expired, Ping, Pong, Error)
"""What a game socket may be sent."""
LOBBY_MESSAGES: tuple[type[ServerMessage], ...] = (Lobby, Queue, Matched, Ping, Pong, Error)
"""What a lobby socket may be sent."""


class Encoded:
    """A message already encoded: one text shared by every socket of an audience."""

    __slots__ = ("text", "version")

    def __init__(self, message: ServerMessage) -> None:
        self.text = message.encode()
        self.version: int | None = getattr(message, "version", None)
