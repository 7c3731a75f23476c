"""What the processes tell one another over the pub/sub (app/db/pubsub.py), typed.

The pub/sub carries JSON objects; every one is written here by ``to_json`` and read back by
:func:`read_game_notice` (a game's topic), :func:`read_lobby_notice` (the lobby channel)
or :func:`read_presence` (the presence topic), so that a publisher and its listeners
cannot drift apart. The shapes on the wire are those of the release before (a rolling
deploy has both on one channel): a reader takes both, and what it does not understand is
None, never an error.

- A game's topic: the doorbell of a committed action (:class:`Moved`), and notices the
  same for everyone at the table (a rematch, a take-back offer, a chat line, an abort, an
  expiry).
- The lobby channel: which lists changed (:class:`LobbyChanged`), and quick match's word to
  the process where a paired or replaced player waits (:class:`Matched`, :class:`Replaced`).
- The presence topic: which games' sockets changed on some process
  (:class:`PresenceChanged`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LOBBY_CHANNEL = "lobby"
"""The lobby's lists and quick match; game ids (16 URL-safe characters) never clash."""
PRESENCE_TOPIC = "presence"
"""Which games' sockets changed, on some process: their counts to read again."""
PRESENCE_BATCH = 300
"""Game ids per presence message: well within a NOTIFY's 8,000 bytes."""

JSON = dict[str, Any]


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


# ------------------------------------------------------------------------ a game's topic

@dataclass(frozen=True, slots=True)
class Moved:
    """The doorbell: ``version`` is committed. It carries the action (a few dozen bytes),
    so that a process whose replay is one behind takes it in without reading the log;
    ``clock`` (``Clocks.to_bell``) in a timed game, ``first_move_by`` (microseconds since
    the epoch) while the next seat's first decision has a deadline."""

    version: int
    seat: int
    action: JSON
    notation: str
    clock: JSON | None = None
    first_move_by: int | None = None

    def to_json(self) -> JSON:
        bell: JSON = {"moved": self.version, "seat": self.seat, "action": self.action,
                      "notation": self.notation}
        if self.clock is not None:
            bell["clock"] = self.clock
        if self.first_move_by is not None:
            bell["first_move_by"] = self.first_move_by
        return bell


@dataclass(frozen=True, slots=True)
class RematchChanged:
    """A rematch offered (``offered_by``), accepted (``game_id``) or declined."""

    offered_by: int | None
    game_id: str | None
    declined_by: int | None = None

    def state(self) -> JSON:
        """As the service answers the seat that asked, and the sockets are sent it."""
        state: JSON = {"offered_by": self.offered_by, "game_id": self.game_id}
        if self.declined_by is not None:
            state["declined_by"] = self.declined_by
        return state

    def to_json(self) -> JSON:
        return {"rematch": self.state()}


@dataclass(frozen=True, slots=True)
class TakeBackChanged:
    """A take-back asked for at ``version`` (``offered_by``), or declined or withdrawn."""

    offered_by: int | None
    version: int
    declined_by: int | None = None

    def state(self) -> JSON:
        state: JSON = {"offered_by": self.offered_by, "version": self.version}
        if self.declined_by is not None:
            state["declined_by"] = self.declined_by
        return state

    def to_json(self) -> JSON:
        return {"take_back": self.state()}


@dataclass(frozen=True, slots=True)
class ChatPosted:
    """A chat line (``entry``: app/services/chat.py's ``entry_json``)."""

    entry: JSON

    def to_json(self) -> JSON:
        return {"chat": self.entry}


@dataclass(frozen=True, slots=True)
class GameAborted:
    """The game was aborted: ``cause`` (``ABORT_CAUSES``), the seat that did or missed its
    first decision, an admin's words."""

    cause: str
    seat: int | None = None
    reason: str | None = None

    def to_json(self) -> JSON:
        return {"aborted": {"reason": self.reason, "cause": self.cause, "seat": self.seat}}


@dataclass(frozen=True, slots=True)
class GameExpired:
    """Nobody joined the game within ``hours`` of its creation."""

    hours: float

    def to_json(self) -> JSON:
        return {"expired": {"hours": self.hours}}


GameNotice = Moved | RematchChanged | TakeBackChanged | ChatPosted | GameAborted | GameExpired


def read_game_notice(message: JSON) -> GameNotice | None:
    """What a message on a game's topic says, or None (not one this release reads)."""
    version, seat = _int(message.get("moved")), _int(message.get("seat"))
    if version is not None:
        action, notation = message.get("action"), _str(message.get("notation"))
        if seat is None or not isinstance(action, dict) or notation is None:
            return None
        clock = message.get("clock")
        return Moved(version, seat, action, notation,
                     clock if isinstance(clock, dict) else None,
                     _int(message.get("first_move_by")))
    for key, body in message.items():
        if isinstance(body, dict):
            notice = _read_table_notice(key, body)
            if notice is not None:
                return notice
    earlier = message.get("notice")
    if isinstance(earlier, dict):  # rung by a replica of the release before
        return _read_table_notice(str(earlier.get("type")), earlier)
    return None


def _read_table_notice(kind: str, body: JSON) -> GameNotice | None:
    if kind == "rematch":
        return RematchChanged(_int(body.get("offered_by")), _str(body.get("game_id")),
                              _int(body.get("declined_by")))
    if kind == "take_back":
        version = _int(body.get("version"))
        if version is None:
            return None
        return TakeBackChanged(_int(body.get("offered_by")), version,
                               _int(body.get("declined_by")))
    if kind == "chat":
        return ChatPosted(body)
    if kind == "aborted":
        # An admin's abort rung by a replica of the release before says only its reason.
        return GameAborted(_str(body.get("cause")) or "admin", _int(body.get("seat")),
                           _str(body.get("reason")))
    if kind == "expired":
        hours = body.get("hours")
        return GameExpired(float(hours)) if isinstance(hours, int | float) else None
    return None


# ------------------------------------------------------------------- the lobby channel

@dataclass(frozen=True, slots=True)
class LobbyChanged:
    """What lobby listeners should look at again: the public lists, and the own games of
    these players."""

    public: bool
    players: tuple[str, ...]

    @classmethod
    def of(cls, *, public: bool, players: list[str | None]) -> LobbyChanged:
        return cls(public, tuple(sorted({p for p in players if p is not None})))

    def to_json(self) -> JSON:
        return {"public": self.public, "players": list(self.players)}


@dataclass(frozen=True, slots=True)
class Matched:
    """Quick match paired ``player``, who waits on the process ``server``, into a game."""

    player: str
    game_id: str
    seat: int
    server: str

    def to_json(self) -> JSON:
        return {"matched": {"player": self.player, "game_id": self.game_id, "seat": self.seat,
                            "server": self.server}}


@dataclass(frozen=True, slots=True)
class Replaced:
    """``player`` took a new place in quick match: the one on ``server`` is given up."""

    player: str
    server: str

    def to_json(self) -> JSON:
        return {"replaced": {"player": self.player, "server": self.server}}


LobbyNotice = LobbyChanged | Matched | Replaced


def read_lobby_notice(message: JSON) -> LobbyNotice | None:
    """What a message on the lobby channel says, or None."""
    matched = message.get("matched")
    if isinstance(matched, dict):
        player, game_id = _str(matched.get("player")), _str(matched.get("game_id"))
        seat, server = _int(matched.get("seat")), _str(matched.get("server"))
        if player is None or game_id is None or seat is None or server is None:
            return None
        return Matched(player, game_id, seat, server)
    replaced = message.get("replaced")
    if isinstance(replaced, dict):
        player, server = _str(replaced.get("player")), _str(replaced.get("server"))
        return None if player is None or server is None else Replaced(player, server)
    players = message.get("players", [])
    if "public" in message or "players" in message:
        return LobbyChanged(bool(message.get("public")),
                            tuple(p for p in players if isinstance(p, str))
                            if isinstance(players, list) else ())
    return None


# -------------------------------------------------------------------- the presence topic

@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """Some process's sockets changed on these games."""

    games: tuple[str, ...]

    def to_json(self) -> JSON:
        return {"games": list(self.games)}

    @classmethod
    def batches(cls, games: list[str]) -> list[PresenceChanged]:
        """The messages saying these games' presence changed, each small enough."""
        return [cls(tuple(games[start:start + PRESENCE_BATCH]))
                for start in range(0, len(games), PRESENCE_BATCH)]


def read_presence(message: JSON) -> PresenceChanged | None:
    games = message.get("games")
    if not isinstance(games, list):
        return None
    return PresenceChanged(tuple(g for g in games if isinstance(g, str)))
