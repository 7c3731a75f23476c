"""Game use cases: create, join, read, and submit an action.

The database is the truth: a game is rebuilt by replaying its log, and the replay is kept
in memory only as a cache that catches up with the log before every use. Actions of one
game are applied one at a time (a lock per game in this process; between processes, the
game's row written only at the version before, in the statement that logs the action),
and an action is committed before anyone is told of it.

Every action this process's replay takes in, its own or one another process committed,
is handed to the ``watch`` listeners (the sockets' hub), in order, once committed: each
process tells its own sockets from its own replay. A commit rings the other processes'
doorbell (``{"moved": version, ...}`` on the game's topic, with the move): they take the
move in (``take``), or catch up with the log (``sync``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import math
import secrets
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cached_property
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.bots import LEVELS
from app.config import Settings
from app.db import repository
from app.db.models import AdminAction, Player, Seat
from app.db.models import Game as GameRow
from app.db.pubsub import PubSub
from app.engine import (
    ENGINE_VERSION,
    OUT_OF_TURN,
    Action,
    Event,
    Forfeit,
    Game,
    IllegalActionError,
    MalformedActionError,
    Options,
    TakeBack,
    from_json,
    parse,
)

from .admission import Admission
from .clocks import (
    Clocked,
    Clocks,
    TimeControl,
    WallClock,
    clocks_of,
    epoch_us,
    from_epoch_us,
    stored,
)
from .errors import ServiceError
from .limits import Rate, RateLimits, address_key
from .notices import (
    LOBBY_CHANNEL,
    GameAborted,
    GameExpired,
    GameNotice,
    LobbyChanged,
    Moved,
    RematchChanged,
    TakeBackChanged,
)
from .results import record_end
from .starts import FirstDecisions, first_decision_time

log = logging.getLogger(__name__)

Missed = list[list[Event]]
"""The events of each action a client missed, oldest first."""

SEED_BITS = 63
"""Seeds fit a signed 64-bit column."""

__all__ = ["Accepted", "Created", "Credentials", "GameService", "ServiceError"]


def computer_name(level: str) -> str:
    """The name a computer player's seat is shown with (the page words it from the level)."""
    return f"Computer ({level})"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class _RequestKey:
    """The idempotency key of a request that takes a seat: a create, or the join of one
    game (one key may serve both)."""

    kind: str
    key: str

    @property
    def stored(self) -> str:
        """What the seat keeps: the hash of kind and key. The seat's secrets are derived
        from the key itself (``GameService._derived``), which is stored nowhere."""
        return _hash(f"{self.kind}\0{self.key}")


TOKEN_BYTES = 32
"""A seat token's random bytes."""
INVITE_BYTES = 12


_OUT_OF_TURN_TRIES = 5
"""An out-of-turn action is made at the game's version; another process's action landing
first makes it try again, at most this many times."""
_CLOSED = {"aborted": "this game was aborted",
           "expired": "nobody joined this game in time",
           "imported": "an imported record is for inspection, not for play"}


def _played_live(control: TimeControl | None) -> bool:
    """Untimed or real time (not correspondence): an absent player's opponent may claim the
    win."""
    return control is None or control.real_time


def _refuse_unstarted_or_closed(status: str) -> None:
    """No action on a game waiting for its second player, aborted, or imported."""
    if status == "waiting":
        raise ServiceError("not_started", "the game waits for a second player", 409)
    if status in _CLOSED:
        raise ServiceError(status, _CLOSED[status], 409)


def rated_needs_account() -> ServiceError:
    """The refusal of a rated game (created, joined, asked for in quick match) to a guest."""
    return ServiceError("rated_needs_account", "a rated game is between two accounts: log "
                        "in first", 403)


def _refuse_unless_account(player: Player | None) -> None:
    if player is None or player.username is None:
        raise rated_needs_account()


def _rematch_of(row: GameRow | repository.GameHead, declined_by: int | None = None
                ) -> RematchChanged:
    return RematchChanged(row.rematch_offer if row.rematch_id is None else None,
                          row.rematch_id, declined_by)


def _without_transactions(sessions: async_sessionmaker[AsyncSession]
                          ) -> async_sessionmaker[AsyncSession]:
    """Sessions whose statements each commit by themselves on PostgreSQL: no BEGIN and
    COMMIT (or ROLLBACK) round trips. For reads (under READ COMMITTED each statement sees
    its own snapshot, in a transaction or not) and for the move's one decisive write
    (``repository.record_move``: guarded by the version, atomic alone). SQLite writes a
    move in two statements: one transaction, as elsewhere."""
    bind = sessions.kw.get("bind")
    if not isinstance(bind, AsyncEngine) or bind.dialect.name != "postgresql":
        return sessions
    return async_sessionmaker(bind.execution_options(isolation_level="AUTOCOMMIT"),
                              expire_on_commit=False)


def fresh_seed() -> int:
    """A seed nobody can predict: what a new game is dealt from."""
    return secrets.randbits(SEED_BITS)


def new_game_row(options: dict[str, Any], *, status: str, origin: str, listed: bool,
                 seed: int, invite_code: str | None = None,
                 time_control: dict[str, Any] | None = None,
                 now: datetime | None = None, rated: bool = False,
                 first_decision: timedelta | None = None) -> GameRow:
    """A game about to start from ``seed``: a fresh id, this engine's version, and, if it
    starts ``now``, the seat to act first and its first decision's deadline (none without
    a ``first_decision`` time). Without an invite code nobody can use one."""
    row = GameRow(id=secrets.token_urlsafe(12), seed=seed,
                  options=options, engine_version=ENGINE_VERSION,
                  invite_hash=_hash(invite_code or secrets.token_urlsafe(32)), status=status,
                  origin=origin, listed=listed, time_control=time_control, rated=rated)
    if status == "active":
        assert now is not None
        _start(row, now, first_decision)
    return row


def _start(row: GameRow, now: datetime, first_decision: timedelta | None) -> None:
    """The game starts ``now``: the first seat to act, its first decision's deadline (if
    ``first_decision`` gives one), and the clocks (if timed), none running yet."""
    row.status = "active"
    row.to_act = _fresh_game(row).to_act
    control = TimeControl.from_json(row.time_control)
    if control is not None:
        clocks = control.start(now)
        row.clock0_ms, row.clock1_ms = clocks.remaining
        row.clock_since, row.clock_running = clocks.since, clocks.running
    row.deadline = None if first_decision is None else now + first_decision


class _Dealt(Clocked, Protocol):
    """What a game is set up from: a game row, or a move's view of it."""

    @property
    def seed(self) -> int: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def time_control(self) -> dict[str, Any] | None: ...

    @property
    def version(self) -> int: ...


def _fresh_game(row: _Dealt) -> Game:
    """The game as set up from its seed and options, before any action."""
    return Game.new(row.seed, Options.from_json(row.options))


def _resent_as(context: repository.MoveContext, seat: int, requested: Action) -> int | None:
    """The version the action logged under the move's client id made, if it is this same
    action from this same seat (the move is a resend); otherwise None."""
    if context.earlier_seat == seat and context.earlier_action == requested.to_json():
        return context.earlier_seq
    return None


def _ms_left(deadline: datetime, now: datetime) -> int:
    """Milliseconds from ``now`` to ``deadline``, none below zero."""
    return max(0, (deadline - now) // timedelta(milliseconds=1))


def game_not_found(game_id: str) -> ServiceError:
    shown = game_id if len(game_id) <= 40 else game_id[:40] + "…"
    return ServiceError("not_found", f"no game {shown!r}", 404)


@dataclass
class Credentials:
    game_id: str
    seat: int
    token: str


@dataclass
class Created:
    credentials: Credentials
    invite_code: str


@dataclass
class Accepted:
    version: int
    duplicate: bool = False
    """The same client id was already applied: nothing was applied again."""


@dataclass(frozen=True)
class Applied:
    """A committed action as a replay took it in: the game right after it, at ``version``."""

    game_id: str
    game: Game
    version: int
    seat: int
    action: dict[str, Any]
    notation: str
    events: list[Event]
    decided: FirstDecisions
    """Which seats had made a decision of their own, the action included."""
    clocks: Clocks | None = None
    """A timed game's clocks right after the action."""
    first_move_by: datetime | None = None
    """When the seat to act next must have made its first decision (None: it has made it,
    or its game has no such deadline, or it is not known here)."""
    here: bool = False
    """Committed by this process (not caught up from another's)."""
    for_a_state: bool = False
    """Taken in while a socket's state is read (:meth:`GameService.snapshot`), which
    includes it."""

    @property
    def abortable(self) -> bool:
        """Either player may still abort the game."""
        return not self.game.is_over and not self.decided.both_made


AppliedListener = Callable[[Applied], None]


@dataclass(frozen=True)
class Snapshot:
    """A game as a joining socket is sent it (:meth:`GameService.snapshot`)."""

    rendered: dict[str, Any]
    version: int
    status: str
    rematch: dict[str, Any]
    abort_reason: str | None
    abort_cause: str | None
    """Why an aborted game was (``ABORT_CAUSES``)."""
    abort_seat: int | None
    """The seat that aborted it, or missed its first decision."""
    abortable: bool
    """A game in play that either player may still abort."""
    first_move: dict[str, Any] | None
    """The seat to act's first decision, while it has a deadline: ``{"seat", "remaining"}``
    (milliseconds left as of the snapshot)."""
    take_back_offer: int | None
    """The seat asking to take its last action back, if one is."""
    clock: dict[str, Any] | None
    """A timed game's clocks as of the snapshot (``Clocks.to_json``), with its control."""
    claim_after: float | None
    """A game in play, played live: seconds an absent opponent is waited for before the
    win may be claimed (None: not such a game)."""


@dataclass(frozen=True)
class _Request:
    """An action to make for ``seat``: ``action`` at ``version`` (None: at whatever version
    the game is at, as a resignation), under ``client_id``."""

    game_id: str
    seat: int
    action: Action
    version: int | None
    client_id: str | None
    offer: int | None = None
    """A take-back written only while this seat's offer stands (it answers that offer)."""


class _TimedOut(Exception):
    """An action came after the flag of the seat to act fell: the game was ended on time
    (``lobby``: the notice of it) and the action is refused."""

    def __init__(self, seat: int, lobby: LobbyChanged) -> None:
        super().__init__(seat)
        self.seat = seat
        self.lobby = lobby


@dataclass(frozen=True)
class _AbortNotice:
    """What everyone is told of a game aborted: on its topic, and the lobby's lists."""

    game_id: str
    cause: str
    seat: int | None
    listed: bool
    players: list[str | None]
    reason: str | None = None
    """An admin's words."""


class _Aborted(Exception):
    """An action came after the seat to act missed its first decision's deadline: the
    game was aborted instead (``notice``), and the action is refused."""

    def __init__(self, notice: _AbortNotice) -> None:
        super().__init__(notice.game_id)
        self.notice = notice


def _first_decision_missed(row: repository.MoveContext, entry: _Entry, now: datetime) -> bool:
    """The seat to act's decision is its first, and its deadline (the row's) has passed."""
    return entry.first_decision() is not None and row.deadline is not None \
        and now >= row.deadline


@dataclass
class _Entry:
    """A game replayed up to ``version`` (the number of actions applied)."""

    game: Game
    control: TimeControl | None
    version: int = 0
    clocks: Clocks | None = None
    """A timed game's clocks at ``version`` (None until the game started)."""
    seats: list[repository.SeatRow] | None = None
    """Who holds each seat, once read after the game started: seats never change after,
    so neither a join (its credentials) nor a move (the lobby's lists) reads them again."""
    listed: bool | None = None
    """Whether the game is in the lobby's lists, once a move read it (it never changes)."""
    events: list[list[Event]] = field(default_factory=list)
    """The events of each action applied, oldest first: what a rejoining client missed
    is here, with no replay of the log."""
    decided: FirstDecisions = field(default_factory=FirstDecisions)
    """Which seats have made a decision of their own at ``version``."""

    def advance(self, applied: Applied) -> None:
        self.version = applied.version
        self.events.append(applied.events)
        self.clocks = applied.clocks
        self.decided = applied.decided

    def first_decision(self) -> int | None:
        """The seat to act, if its decision is its first (its clock does not run)."""
        to_act = self.game.to_act
        return None if to_act is None or self.decided.made(to_act) else to_act

    def running_after(self, decided: FirstDecisions) -> int | None:
        """The seat whose clock runs once an action (applied to ``game`` already) made
        ``decided``: the seat to act, unless its decision is its first."""
        to_act = self.game.to_act
        return to_act if to_act is not None and decided.made(to_act) else None

    def clock_json(self, now: datetime) -> dict[str, Any] | None:
        """The clocks as pages are sent them, as of ``now`` (None: untimed)."""
        if self.control is None or self.clocks is None:
            return None
        return {**self.clocks.to_json(now), "control": self.control.to_json()}


class GameService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], pubsub: PubSub,
                 settings: Settings, *, seeds: Callable[[], int] = fresh_seed,
                 wall: WallClock | None = None) -> None:
        self._sessions = sessions
        self.wall = wall or WallClock()
        """Now, for the clocks: the database's time as this process estimates it."""
        self._statements = _without_transactions(sessions)
        self._seeds = seeds
        """Deals each new game's seed; tests give a seeded source to replay the same games."""
        self._pubsub = pubsub
        self._settings = settings
        self._cache: OrderedDict[str, _Entry] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        """One lock per game with anything in progress; gone when nothing holds it."""
        self._watchers: list[AppliedListener] = []
        self._start_watchers: list[Callable[[str], None]] = []
        self.admission = Admission(working=settings.moves_working,
                                   waiting=settings.moves_waiting)
        self.limits = RateLimits(sessions, self.wall)

    def watch_starts(self, listener: Callable[[str], None]) -> None:
        """Call ``listener`` with the id of each game this process starts already in play
        (against the computer, or its rematch), once committed."""
        self._start_watchers.append(listener)

    def _started(self, game_id: str) -> None:
        for listener in self._start_watchers:
            listener(game_id)

    def watch(self, listener: AppliedListener) -> None:
        """Call ``listener`` with every committed action a replay takes in, in order (with
        the game's lock held: it must not wait)."""
        self._watchers.append(listener)

    def _taken_in(self, entry: _Entry, applied: Applied) -> None:
        """The replay ``entry`` took in a committed action: it moves on, the watchers hear."""
        entry.advance(applied)
        for listener in self._watchers:
            listener(applied)

    # ------------------------------------------------------------------ create / join
    async def create_game(self, *, wonder_selection: str, creator_starts: bool,
                          name: str | None, player_id: str | None = None,
                          listed: bool = False, time_control: TimeControl | None = None,
                          request_key: str | None = None, address: str | None = None,
                          rated: bool = False) -> Created:
        """A new game, the creator in seat 0, waiting for a second player. With a
        ``player_id`` the seat is that player's (their session opens it, their name is the
        default); a ``listed`` game is shown in the lobby for anyone to join. The clocks
        (``time_control``; None: untimed) start when the game does.

        A request sent again with its ``request_key`` (its answer was lost) gets the same
        game, seat token and invite code, and creates nothing. A ``rated`` game is created
        and joined by accounts only; its result moves their ratings."""
        keyed = None if request_key is None else _RequestKey("create", request_key)
        if keyed is not None and (again := await self._seat_of_request(keyed, player_id)):
            return Created(again, self._derived(keyed, "invite", INVITE_BYTES))
        await self._count("create", address, player_id, self._settings.games_per_hour,
                          code="too_many_games", what="games created")
        options = Options(wonder_selection=wonder_selection,  # type: ignore[arg-type]
                          first_player=0 if creator_starts else None)
        token, invite_code = (
            (secrets.token_urlsafe(TOKEN_BYTES), secrets.token_urlsafe(INVITE_BYTES))
            if keyed is None else
            (self._derived(keyed, "token", TOKEN_BYTES),
             self._derived(keyed, "invite", INVITE_BYTES)))
        try:
            async with self._sessions() as session:
                player = await self._player(session, player_id)
                if rated:
                    _refuse_unless_account(player)
                row = new_game_row(options.to_json(), status="waiting",
                                   origin="lobby" if listed else "invite", listed=listed,
                                   seed=self._seeds(), invite_code=invite_code,
                                   time_control=stored(time_control), rated=rated)
                game_id = row.id
                session.add(row)
                await session.flush()
                session.add(Seat(game_id=game_id, seat=0, token_hash=_hash(token),
                                 name=name or (player.name if player else None),
                                 player_id=player.id if player else None,
                                 joined_at=self.wall.now(),
                                 request_hash=keyed and keyed.stored))
                await session.commit()
        except IntegrityError:
            # The same key's other request (sent twice at once) took a seat first.
            if keyed is None or not (again := await self._seat_of_request(keyed, player_id)):
                raise
            return Created(again, invite_code)
        await self._lobby_changed(public=listed, players=[player_id])
        return Created(Credentials(game_id, 0, token), invite_code)

    async def join_game(self, game_id: str, invite_code: str | None, name: str | None,
                        player_id: str | None = None, *, request_key: str | None = None,
                        address: str | None = None) -> Credentials:
        """Take the free seat; the game starts. An unlisted game needs its invite code.
        Sent again with its ``request_key``, a join that took the seat gets it again."""
        keyed = None if request_key is None else _RequestKey(f"join\0{game_id}", request_key)
        if keyed is not None and (again := await self._seat_of_request(keyed, player_id)):
            return again
        await self._count("join", address, player_id, self._settings.joins_per_hour,
                          code="too_many_joins", what="games joined")
        token = (secrets.token_urlsafe(TOKEN_BYTES) if keyed is None
                 else self._derived(keyed, "token", TOKEN_BYTES))
        async with self._sessions() as session:
            # Written first, while it waits: from here to the commit no other join, expiry
            # or abort can change the game (PostgreSQL holds the row, SQLite the database).
            waiting = await repository.touch_waiting(session, game_id, datetime.now(UTC))
            row = await self._row(session, game_id)
            await session.refresh(row)
            if invite_code is None:
                if not row.listed:
                    raise ServiceError("bad_invite", "this game is joined by its invite link",
                                       403, params={"cause": "missing"})
            elif not hmac.compare_digest(row.invite_hash, _hash(invite_code)):
                raise ServiceError("bad_invite", "this invite code is not valid for the game",
                                   403, params={"cause": "wrong"})
            status = row.status
            if waiting and self._expired(row.created_at):
                status = "expired"  # not swept yet (Expiry): expired all the same
            if status == "aborted" and row.abort_cause == "cancelled":
                status = "cancelled"
            if status in ("aborted", "cancelled", "expired", "imported"):
                raise ServiceError("not_joinable", f"this game is {status}", 409,
                                   params={"status": status})
            seats = await repository.get_seats(session, game_id)
            taken = not waiting or any(s.seat == 1 for s in seats)
            if not taken:
                player = await self._player(session, player_id)
                if row.rated:
                    _refuse_unless_account(player)
                if player is not None and any(s.player_id == player.id for s in seats):
                    raise ServiceError("own_game", "you already hold the other seat of this "
                                       "game", 409)
                session.add(Seat(game_id=game_id, seat=1, token_hash=_hash(token),
                                 name=name or (player.name if player else None),
                                 player_id=player.id if player else None,
                                 joined_at=self.wall.now(),
                                 request_hash=keyed and keyed.stored))
                _start(row, self.wall.now(), self._first_decision_time(row.time_control))
                try:
                    await session.commit()
                except IntegrityError:  # the seat was taken meanwhile
                    taken = True
        if taken:  # read on a connection of its own once this one is back in the pool
            return await self._taken(keyed, player_id)
        await self._lobby_changed(public=row.listed,
                                  players=[player_id, *(s.player_id for s in seats)])
        return Credentials(game_id, 1, token)

    async def _taken(self, keyed: _RequestKey | None, player_id: str | None) -> Credentials:
        """The second seat is taken: by this very join, sent again (or twice at once), it
        gets its seat; anyone else finds the game full."""
        if keyed is not None and (again := await self._seat_of_request(keyed, player_id)):
            return again
        raise ServiceError("game_full", "both seats are taken", 409)

    def _expired(self, created_at: datetime) -> bool:
        """Whether a game created then and still waiting has expired."""
        return self.wall.now() - created_at > timedelta(hours=self._settings.open_game_hours)

    @cached_property
    def _secret(self) -> bytes:
        """The site's secret key, read once (in development it is read from a file)."""
        return self._settings.session_secret().encode()

    def _derived(self, keyed: _RequestKey, purpose: str, size: int) -> str:
        """A secret of ``size`` bytes made from a request's key and this site's secret:
        the retry of that request gets the same one, and neither the database nor the
        secret alone makes it."""
        digest = hmac.new(self._secret, f"{purpose}\0{keyed.kind}\0{keyed.key}".encode(),
                          hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:size]).rstrip(b"=").decode()

    async def _seat_of_request(self, keyed: _RequestKey, player_id: str | None
                               ) -> Credentials | None:
        """The credentials of the seat the request with this key took, if one did. Refused
        (``key_reused``) to another player than the one it seated."""
        async with self._sessions() as session:
            seat = await repository.seat_of_request(session, keyed.stored)
        if seat is None:
            return None
        token = self._derived(keyed, "token", TOKEN_BYTES)
        if (seat.player_id is not None and seat.player_id != player_id) or \
                not hmac.compare_digest(seat.token_hash, _hash(token)):
            # Someone else's key (or one from before the secret key changed).
            raise ServiceError("key_reused", "this Idempotency-Key was used by another "
                               "request; send a new one", 409)
        return Credentials(seat.game_id, seat.seat, token)

    async def _count(self, bucket: str, address: str | None, player_id: str | None,
                     per_hour: int, *, code: str, what: str) -> None:
        """Count one more of ``bucket`` for the address and the player: refused past
        ``per_hour`` for either."""
        keys = [f"address|{address_key(address)}" if address is not None else "",
                f"player|{player_id}" if player_id is not None else ""]
        await self.limits.take(bucket, [key for key in keys if key], Rate(per_hour, 3600),
                               code=code, what=what)

    async def create_matched_game(self, first: str, second: str, *, rated: bool = False
                                  ) -> str:
        """A quick-match game between two players, already started: ``first`` (who waited
        longer) in seat 0. Their sessions open the seats; nobody gets a token. A ``rated``
        one is between two accounts."""
        if first == second:
            raise ServiceError("own_game", "a player cannot be matched with themselves", 409)
        async with self._sessions() as session:
            players = [await self._player(session, pid) for pid in (first, second)]
            if rated:
                for player in players:
                    _refuse_unless_account(player)
            row = new_game_row(Options().to_json(), status="active", origin="quick_match",
                               listed=True, seed=self._seeds(), now=self.wall.now(),
                               rated=rated, first_decision=self._first_decision_time(None))
            game_id = row.id
            session.add(row)
            await session.flush()
            for seat, player in enumerate(players):
                assert player is not None
                session.add(Seat(game_id=game_id, seat=seat,
                                 token_hash=_hash(secrets.token_urlsafe(32)),
                                 name=player.name, player_id=player.id,
                                 joined_at=self.wall.now()))
            await session.commit()
        await self._lobby_changed(public=True, players=[first, second])
        return game_id

    async def create_computer_game(self, player_id: str | None, level: str, *,
                                   wonder_selection: str = "draft",
                                   first_player: int | None = None,
                                   address: str | None = None,
                                   request_key: str | None = None) -> str:
        """A game against the computer at ``level``, already started: the player in seat 0
        (their session opens it), the computer in seat 1. ``first_player``: the seat that
        starts (None: drawn). Never rated; not listed in the lobby. Sent again with its
        ``request_key`` (its answer was lost), the request gets the same game."""
        if player_id is None:
            raise ServiceError("no_player", "pick a name first (PUT /api/me)", 401)
        if level not in LEVELS:
            raise ServiceError("unknown_level", f"no computer level {level!r}", 422,
                               params={"levels": list(LEVELS)})
        keyed = None if request_key is None else _RequestKey("computer", request_key)
        if keyed is not None and (again := await self._seat_of_request(keyed, player_id)):
            return again.game_id
        await self._count("computer", address, player_id,
                          self._settings.computer_games_per_hour, code="too_many_games",
                          what="games against the computer")
        options = Options(wonder_selection=wonder_selection,  # type: ignore[arg-type]
                          first_player=first_player)
        async with self._sessions() as session:
            player = await self._player(session, player_id)
            assert player is not None
            row = new_game_row(options.to_json(), status="active", origin="computer",
                               listed=False, seed=self._seeds(), now=self.wall.now())
            game_id = row.id
            session.add(row)
            await session.flush()
            # The player's seat: a token made from the request's key when it has one (its
            # retry is then recognised by it), a random one otherwise; nobody is given it.
            token = (secrets.token_urlsafe(TOKEN_BYTES) if keyed is None
                     else self._derived(keyed, "token", TOKEN_BYTES))
            session.add(Seat(game_id=game_id, seat=0, token_hash=_hash(token),
                             name=player.name, player_id=player.id,
                             joined_at=self.wall.now(), request_hash=keyed and keyed.stored))
            session.add(Seat(game_id=game_id, seat=1,
                             token_hash=_hash(secrets.token_urlsafe(TOKEN_BYTES)),
                             name=computer_name(level), computer=level,
                             joined_at=self.wall.now()))
            try:
                await session.commit()
            except IntegrityError:
                # The same key's other request (sent twice at once) made the game first.
                if keyed is None or not (again := await self._seat_of_request(keyed,
                                                                              player_id)):
                    raise
                return again.game_id
        await self._lobby_changed(public=False, players=[player_id])
        self._started(game_id)
        return game_id

    async def authenticate(self, game_id: str, seat: int, token: str) -> int:
        """``seat``, if ``token`` is its secret; otherwise a ``bad_credentials`` refusal."""
        if await self.seat_for_token(game_id, token) != seat:
            raise ServiceError("bad_credentials", "these credentials do not hold a seat", 401)
        return seat

    async def seat_for_token(self, game_id: str, token: str) -> int:
        """The seat whose secret ``token`` is; otherwise a ``bad_credentials`` refusal."""
        for holder in await self.seat_holders(game_id):
            if hmac.compare_digest(holder.token_hash, _hash(token)):
                return holder.seat
        raise ServiceError("bad_credentials", "these credentials do not hold a seat", 401)

    async def seat_for_player(self, game_id: str, player_id: str | None) -> int | None:
        """The seat ``player_id`` holds in the game, if any."""
        if player_id is None:
            return None
        return next((holder.seat for holder in await self.seat_holders(game_id)
                     if holder.player_id == player_id), None)

    async def seat_holders(self, game_id: str) -> list[repository.SeatRow]:
        """Who holds each seat (a ``not_found`` refusal for no such game). Once the game
        started they are kept with its replay, which is brought up to date meanwhile:
        the other seat joining, and this socket's state next, read little or nothing."""
        entry = self._cache.get(game_id)
        if entry is not None and entry.seats is not None:
            return entry.seats
        async with self._lock(game_id), self._statements() as session:
            entry = self._cache.get(game_id)  # another socket of the game may have read them
            if entry is not None and entry.seats is not None:
                return entry.seats
            found = await repository.head_and_seats(session, game_id)
            if found is None:
                raise game_not_found(game_id)
            head, seats = found
            if head.status != "waiting":
                entry = await self._synced(session, game_id, head, known_version=head.version)
                entry.seats = seats
            return seats

    # ------------------------------------------------------------------ reading
    async def summary(self, game_id: str) -> dict[str, Any]:
        async with self._statements() as session:
            row = await self._row(session, game_id)
            seats = await repository.get_seats(session, game_id)
            aborted = (await repository.abort_of(session, game_id)
                       if row.status == "aborted" else None)
            changes = (await repository.game_rating_changes(session, game_id)
                       if row.rated and row.status == "finished" else [])
            return {
                "game_id": row.id, "status": row.status, "options": row.options,
                "engine_version": row.engine_version, "version": row.version,
                "winner": row.winner, "victory": row.victory,
                "origin": row.origin, "listed": row.listed, "to_act": row.to_act,
                "time_control": row.time_control, "rated": row.rated,
                "rematch": _rematch_of(row).state(),
                "abort_reason": aborted.detail.get("reason") if aborted else None,
                "abort_cause": row.abort_cause, "abort_seat": row.abort_seat,
                "created_at": row.created_at.isoformat(),
                "seats": [{"seat": s, "taken": any(x.seat == s for x in seats),
                           "name": next((x.name for x in seats if x.seat == s), None),
                           "computer": next((x.computer for x in seats if x.seat == s), None)}
                          for s in (0, 1)],
                # A finished rated game: what it did to each player's rating.
                "ratings": [{"seat": seat, "before": round(before), "after": round(after)}
                            for seat, before, after in changes],
            }

    async def sync(self, game_id: str) -> int:
        """Catch the replay up with the committed log (another process rang): the watchers
        hear of each action taken in. The version now."""
        async with self._lock(game_id), self._statements() as session:
            return (await self._synced(session, game_id)).version

    async def take(self, game_id: str, bell: Moved) -> int:
        """Another process committed a move, and its doorbell says so. A replay at the
        version before takes it in at once; any other catches up with the log. The version
        now."""
        version, seat, action, notation, clock = (
            bell.version, bell.seat, bell.action, bell.notation, bell.clock)
        async with self._lock(game_id):
            entry = self._cache.get(game_id)
            if entry is not None and entry.version == version - 1:
                self._cache.move_to_end(game_id)
                try:
                    events = entry.game.apply(action)
                except BaseException:  # a replay that cannot take a committed move is wrong
                    self._cache.pop(game_id, None)
                    raise
                decided = entry.decided.after(seat, action)
                clocks = None if entry.control is None else \
                    Clocks.from_bell(clock, entry.running_after(decided))
                if entry.control is not None and clocks is None:  # not said: read the log
                    self._cache.pop(game_id, None)
                    async with self._statements() as session:
                        return (await self._synced(session, game_id)).version
                by = bell.first_move_by
                self._taken_in(entry, Applied(
                    game_id, entry.game, version, seat, action, notation, events, decided,
                    clocks, first_move_by=None if by is None else from_epoch_us(by)))
                return version
            if entry is not None and entry.version >= version:
                return entry.version
            async with self._statements() as session:
                return (await self._synced(session, game_id)).version

    async def current(self, game_id: str) -> tuple[Game, int]:
        """The game replayed up to the last committed action, and that version."""
        async with self._lock(game_id):
            async with self._statements() as session:
                entry = await self._synced(session, game_id)
            return entry.game, entry.version

    async def snapshot(self, game_id: str, seen: int | None,
                       render: Callable[[Game, int, Missed | None], dict[str, Any]]
                       ) -> Snapshot:
        """What a socket is sent when it joins or asks for the state, read in one session:
        the game now, rendered by ``render(game, version, missed)`` while no move can
        change it (``missed``: for a client that last saw ``seen``, the events of every
        action since; None when it said none, or one never reached), with the game's
        status and rematch."""
        async with self._lock(game_id), self._statements() as session:
            row = await repository.game_head(session, game_id)
            if row is None:
                raise game_not_found(game_id)
            entry = await self._synced(session, game_id, row, known_version=row.version,
                                       for_a_state=True)
            aborted = (await repository.abort_of(session, game_id)
                       if row.status == "aborted" else None)
            missed = None if seen is None or seen > entry.version else entry.events[seen:]
            now = self.wall.now()
            playing = row.status == "active" and not entry.game.is_over
            first = entry.first_decision()
            return Snapshot(render(entry.game, entry.version, missed), entry.version,
                            row.status, _rematch_of(row).state(),
                            aborted.detail.get("reason") if aborted else None,
                            row.abort_cause, row.abort_seat,
                            playing and not entry.decided.both_made,
                            {"seat": first, "remaining": _ms_left(row.deadline, now)}
                            if playing and first is not None and row.deadline is not None
                            else None,
                            row.take_back_offer, entry.clock_json(now),
                            self._settings.abandon_after
                            if row.status == "active" and _played_live(entry.control)
                            and not any(s.computer for s in entry.seats or ())
                            else None)

    async def prepare_socket(self, game_id: str) -> None:
        """Refuses (``not_found``) a game that does not exist. A socket opens on it: its
        seats and its replay are read now, for the join that follows."""
        await self.seat_holders(game_id)

    # ------------------------------------------------------------------ acting
    async def submit(self, game_id: str, seat: int, action: Any, version: int,
                     client_id: str | None) -> Accepted:
        """Apply ``action`` for ``seat`` if it is legal at ``version``: commit it, then
        publish it. Any refusal changes nothing."""
        try:
            requested = parse(action) if isinstance(action, str) else from_json(action)
        except MalformedActionError as error:
            raise ServiceError("malformed", str(error)) from None
        if isinstance(requested, OUT_OF_TURN):
            raise ServiceError("malformed", "resigning and taking back have messages of "
                               "their own (docs/protocol.md)")
        return await self._submit(_Request(game_id, seat, requested, version, client_id))

    async def _submit(self, request: _Request) -> Accepted:
        game_id = request.game_id
        # The game's lock first: moves queued behind one game hold no turn that another
        # game's move could use.
        try:
            async with self._lock(game_id), self.admission.turn(), \
                    self._statements() as session:
                accepted, lobby = await self._submit_locked(session, request,
                                                            self.wall.now())
        except _TimedOut as timed_out:
            # The flag had fallen: the game was ended on time instead, and this refused.
            if not self._pubsub.crosses_processes:
                await self._announce(LOBBY_CHANNEL, timed_out.lobby)
            raise ServiceError("time_out", f"seat {timed_out.seat}'s time ran out: the game "
                               "is over", 409, params={"seat": timed_out.seat}) from None
        except _Aborted as aborted:
            # The first decision's deadline had passed: the game was aborted instead.
            await self._tell_aborted(aborted.notice)
            raise ServiceError("aborted", _CLOSED["aborted"], 409) from None
        if lobby is not None and not self._pubsub.crosses_processes:
            await self._announce(LOBBY_CHANNEL, lobby)
        return accepted

    async def _submit_locked(self, session: AsyncSession, request: _Request, now: datetime
                             ) -> tuple[Accepted, LobbyChanged | None]:
        entry = self._cache.get(request.game_id)
        if entry is not None and entry.seats is not None and entry.listed is not None \
                and entry.version == request.version and entry.game.to_act == request.seat \
                and entry.first_decision() is None and not isinstance(request.action, Forfeit) \
                and (entry.control is None or (entry.clocks is not None
                                               and not entry.clocks.fallen(now))):
            # The move as this replay sees it, written at once: the write's version guard
            # tells whether the replay was the log's head. Only when it was not, or the
            # move is refused here, is the game read (as below) for the answer.
            self._cache.move_to_end(request.game_id)
            try:
                events = entry.game.apply(request.action, seat=request.seat)
            except IllegalActionError:
                pass
            else:
                lobby = await self._record(session, request, entry, events, now)
                if lobby is not None:
                    return Accepted(entry.version), lobby
                await session.rollback()
        return await self._submit_read_first(session, request, now)

    async def _submit_read_first(self, session: AsyncSession, request: _Request,
                                 now: datetime) -> tuple[Accepted, LobbyChanged | None]:
        game_id, seat, requested, version = (request.game_id, request.seat, request.action,
                                             request.version)
        client_id = request.client_id
        # One statement (one snapshot): the game's head and the move's earlier copy.
        row = await repository.move_context(session, game_id, client_id)
        if row is None:
            raise game_not_found(game_id)
        if row.earlier_seq is not None:
            resent = _resent_as(row, seat, requested)
            if resent is None:
                raise ServiceError("client_id_reused",
                                   "this client id was used for another action", 409)
            return Accepted(resent, duplicate=True), None
        _refuse_unstarted_or_closed(row.status)
        entry = await self._entry_to_write(session, row)
        if entry.game.is_over:
            raise ServiceError("game_over", "the game is over", 409)
        if version is not None and version != entry.version:
            raise ServiceError(
                "stale_version",
                f"the game is at version {entry.version}, not {version}", 409,
                params={"version": entry.version, "sent": version})
        if _first_decision_missed(row, entry, now):
            # Too late, whatever was asked: the game is aborted, nobody lost.
            seat_missing = entry.first_decision()
            assert seat_missing is not None
            notice = await self._abort_at(session, row, entry, "first_move", seat_missing)
            if notice is None:
                return await self._lost_race(session, request)
            raise _Aborted(notice)
        if isinstance(requested, Forfeit) and not entry.decided.both_made:
            raise ServiceError("abort_instead", "nothing is at stake before both players have "
                               "made a decision: abort the game instead", 409)
        if entry.clocks is not None and entry.clocks.fallen(now):
            # Too late, whatever was asked: the seat to act lost on time.
            loser = entry.clocks.running
            assert loser is not None
            lobby = await self._time_out(session, game_id, entry, loser, now)
            if lobby is None:
                return await self._lost_race(session, request)
            raise _TimedOut(loser, lobby)
        if not isinstance(requested, OUT_OF_TURN) and entry.game.to_act != seat:
            raise ServiceError("not_your_turn", f"seat {entry.game.to_act} is to act",
                               409, params={"to_act": entry.game.to_act, "seat": seat})
        try:
            events = entry.game.apply(requested, seat=seat)
        except IllegalActionError as error:
            raise ServiceError("illegal", str(error), 409, detail=error.code,
                               params=error.params) from None
        lobby = await self._record(session, request, entry, events, now)
        if lobby is not None:
            return Accepted(entry.version), lobby
        return await self._lost_race(session, request)

    async def _entry_to_write(self, session: AsyncSession, row: repository.MoveContext
                              ) -> _Entry:
        """The replay at the version of ``row`` (just read), ready to record an action."""
        entry = await self._synced(session, row.game_id, row, known_version=row.version)
        entry.listed = row.listed
        if entry.seats is None:
            entry.seats = await repository.seat_rows(session, row.game_id)
        return entry

    async def flag_fall(self, game_id: str) -> bool:
        """End the game on time if the seat to act ran out of it (by this process's reading
        of the database's clock). Whether this call ended it: of several servers calling at
        once, exactly one does (the write is guarded by the game's version)."""
        async with self._lock(game_id), self.admission.turn(), \
                self._statements() as session:
            now = self.wall.now()
            row = await repository.move_context(session, game_id, None)
            if row is None or row.status != "active" or row.deadline is None:
                return False
            entry = await self._entry_to_write(session, row)
            if entry.game.is_over:
                return False
            seat_missing = entry.first_decision()
            if seat_missing is not None:
                if not _first_decision_missed(row, entry, now):
                    return False
                notice = await self._abort_at(session, row, entry, "first_move", seat_missing)
                if notice is None:
                    return False
                lobby = None
            elif entry.clocks is None or entry.clocks.running is None \
                    or not entry.clocks.fallen(now):
                return False
            else:
                lobby = await self._time_out(session, game_id, entry, entry.clocks.running,
                                             now)
                notice = None
        if notice is not None:
            await self._tell_aborted(notice)
            return True
        if lobby is None:
            return False
        if not self._pubsub.crosses_processes:
            await self._announce(LOBBY_CHANNEL, lobby)
        return True

    async def _lost_race(self, session: AsyncSession, request: _Request
                         ) -> tuple[Accepted, None]:
        """The answer to an action whose write wrote nothing: another server moved first,
        or aborted the game. What happened decides it; it may have been this very action,
        resent there by the same client (a duplicate ack), otherwise a refusal."""
        await session.rollback()
        after = await repository.move_context(session, request.game_id, request.client_id)
        resent = _resent_as(after, request.seat, request.action) if after is not None else None
        if resent is not None:
            return Accepted(resent, duplicate=True), None
        if after is not None and after.status == "aborted":
            raise ServiceError("aborted", _CLOSED["aborted"], 409)
        if after is not None and after.status == "finished":  # as by a flag falling first
            raise ServiceError("game_over", "the game is over", 409)
        raise ServiceError("stale_version", "another action was applied first", 409,
                           params={} if request.version is None else {"sent": request.version})

    async def _time_out(self, session: AsyncSession, game_id: str, entry: _Entry, loser: int,
                        now: datetime) -> LobbyChanged | None:
        """End the game on ``loser``'s time at ``entry``'s version, recorded at the moment
        the flag fell (whenever, and by whichever process, it is noticed): the lobby's
        notice of it, or None if the log had moved on (nothing written)."""
        assert entry.clocks is not None
        fell = entry.clocks.flag_at
        assert fell is not None and fell <= now
        lost = Forfeit(loser, "time")
        events = entry.game.apply(lost, seat=loser)
        return await self._record(session, _Request(game_id, loser, lost, entry.version, None),
                                  entry, events, fell)

    async def _record(self, session: AsyncSession, request: _Request, entry: _Entry,
                      events: list[Event], now: datetime) -> LobbyChanged | None:
        """Commit the action ``entry``'s replay has just applied, as the version after
        ``entry.version``, and tell this process's watchers; the lobby's notice of it.
        None (nothing written, the replay dropped: it took an action that is not in the
        log) if the log had moved on."""
        assert entry.seats is not None and entry.listed is not None
        game_id, seat, client_id = request.game_id, request.seat, request.client_id
        new_version = entry.version + 1
        try:
            applied = entry.game.log[-1]
            action_json, notation = applied.to_json(), str(applied)
            outcome = entry.game.outcome()
            to_act = None if outcome else entry.game.to_act
            decided = entry.decided.after(seat, action_json)
            first_decision = to_act is not None and entry.running_after(decided) is None
            clocks = None
            if entry.control is not None:
                assert entry.clocks is not None, "a timed game's replay knows its clocks"
                clocks = entry.control.after(entry.clocks, now, seat=seat, to_act=to_act,
                                             in_turn=not isinstance(applied, OUT_OF_TURN),
                                             first_decision=first_decision)
            first_move_by = now + self._first_decision_time(entry.control) \
                if first_decision and not any(s.computer for s in entry.seats) else None
            # A move changes its players' own lists; an ending also the public ones.
            lobby = LobbyChanged.of(public=outcome is not None and entry.listed,
                                   players=[s.player_id for s in entry.seats])
            # The doorbell carries the action (a few dozen bytes): a process whose
            # replay is one behind takes it in without reading the log.
            bell = Moved(new_version, seat, action_json, notation,
                         clocks.to_bell() if clocks is not None else None,
                         epoch_us(first_move_by) if first_move_by is not None else None)
            notices = [notice for notice in (
                self._pubsub.notice(game_id, bell.to_json()),
                self._pubsub.notice(LOBBY_CHANNEL, lobby.to_json())) if notice is not None]
            move = repository.Move(
                game_id, new_version, seat, action_json, notation, client_id,
                status="finished" if outcome else "active", to_act=to_act,
                winner=outcome.winner if outcome else None,
                victory=outcome.victory.value if outcome else None, now=now,
                clocks=clocks.remaining if clocks else None,
                deadline=first_move_by or (clocks.flag_at if clocks else None),
                running=clocks.running if clocks else None, offer=request.offer)
            # Guarded by the game's version: of two servers moving the same game, the
            # second waits for the first's commit and writes nothing.
            # An ending is written with its summary and the new ratings: one transaction.
            writing = (contextlib.nullcontext(session) if outcome is None
                       else self._transaction(session))
            async with writing as writer:
                recorded = await repository.record_move(writer, move, notices)
                if recorded:
                    if outcome is not None:
                        await record_end(writer, game_id, entry.game, now)
                    await writer.commit()
        except IntegrityError:  # this client id (or seq) was logged meanwhile elsewhere
            recorded = False
        except BaseException:
            self._cache.pop(game_id, None)
            raise
        if not recorded:
            self._cache.pop(game_id, None)
            return None
        # Committed: now, and only now, this process's sockets may hear of it (the
        # others' when their process catches up).
        self._taken_in(entry, Applied(game_id, entry.game, new_version, seat, action_json,
                                      notation, events, decided, clocks,
                                      first_move_by=first_move_by, here=True))
        return lobby

    # ------------------------------------------------------------------ out of turn
    async def resign(self, game_id: str, seat: int) -> Accepted:
        """``seat`` resigns: the other seat wins, whoever was to act."""
        return await self._out_of_turn(game_id, Forfeit(seat, "resigned"))

    async def _out_of_turn(self, game_id: str, forfeit: Forfeit) -> Accepted:
        """Make ``forfeit`` at whatever version the game is at."""
        for _ in range(_OUT_OF_TURN_TRIES):
            try:
                return await self._submit(_Request(game_id, forfeit.seat, forfeit, None, None))
            except ServiceError as error:
                if error.code != "stale_version":  # another process's move came first
                    raise
        raise ServiceError("busy", "the game is moving too fast: nothing was changed; send "
                           "it again", 503, params={"retry_after": 1})

    async def claim_win(self, game_id: str, seat: int, *, opponent_present: bool) -> Accepted:
        """``seat`` claims the win from an opponent who left: in a game played live
        (untimed or real-time), once the opponent has had no socket for
        ``abandon_after`` seconds. A correspondence game ends by its clock instead."""
        other = 1 - seat
        if await self._against_computer(game_id, seat):
            raise ServiceError("not_abandoned", "the computer never leaves a game", 409,
                               params={"cause": "computer"})
        async with self._statements() as session:
            head = await self._playing_head(session, game_id)
            if not _played_live(TimeControl.from_json(head.time_control)):
                raise ServiceError("not_abandoned", "a correspondence game ends by its clock",
                                   409, params={"cause": "correspondence"})
            if opponent_present:
                raise ServiceError("not_abandoned", "the opponent is connected", 409,
                                   params={"cause": "present"})
            since = await repository.away_since(session, game_id, other)
        assert since is not None, "a game in play has both seats"
        wait = self._settings.abandon_after - (self.wall.now() - since).total_seconds()
        if wait > 0:
            raise ServiceError("not_abandoned", "the opponent left only a moment ago", 409,
                               params={"cause": "recent", "wait": math.ceil(wait)})
        return await self._out_of_turn(game_id, Forfeit(other, "abandoned"))

    async def _against_computer(self, game_id: str, seat: int) -> bool:
        """Whether the computer holds the other seat."""
        return any(holder.seat != seat and holder.computer
                   for holder in await self.seat_holders(game_id))

    async def seat_left(self, game_id: str, seat: int) -> None:
        """The seat's last socket on this server closed: from now it may be away."""
        async with self._sessions() as session:
            await repository.seat_left(session, game_id, seat, self.wall.now())
            await session.commit()

    async def everyone_left(self) -> None:
        """This server starts alone (SQLite): every socket of before is gone."""
        async with self._sessions() as session:
            await repository.seats_left(session, self.wall.now())
            await session.commit()

    async def offer_take_back(self, game_id: str, seat: int) -> dict[str, Any]:
        """``seat`` asks to take its last action back: allowed if that action is the game's
        last and revealed nothing. The offer stands until the other seat answers, or any
        action is made."""
        if await self._against_computer(game_id, seat):
            raise ServiceError("computer_declines", "the computer does not take moves back",
                               409)
        async with self._lock(game_id), self._statements() as session:
            head = await self._playing_head(session, game_id)
            entry = await self._synced(session, game_id, head, known_version=head.version)
            if not entry.game.can_take_back(seat):
                raise ServiceError("illegal", "this seat has no last action to take back",
                                   409, detail="cannot_take_back", params={"seat": seat})
            if not await repository.offer_take_back(session, game_id, seat, head.version):
                raise ServiceError("stale_version", "the game moved on", 409,
                                   params={"version": head.version + 1})
            await session.commit()
            offered = TakeBackChanged(seat, head.version)
            # Told with the lock held: an action (which takes it) is told after, not before.
            await self._announce(game_id, offered)
        return offered.state()

    async def accept_take_back(self, game_id: str, seat: int) -> Accepted:
        """The other seat's offer is accepted: its last action is undone, in the log. The
        take-back is written at the version the offer was made at, and only while the offer
        stands: a move, a withdrawal or another acceptance coming first leaves nothing to
        accept."""
        async with self._statements() as session:
            head = await self._playing_head(session, game_id)
        asker = 1 - seat
        if head.take_back_offer != asker:
            raise ServiceError("no_take_back", "no take-back is on offer from the other seat",
                               409)
        try:  # the asking seat's take-back, now agreed
            return await self._submit(_Request(game_id, asker, TakeBack(asker), head.version,
                                               None, offer=asker))
        except ServiceError as error:
            if error.code == "stale_version":  # the offer lapsed meanwhile
                raise ServiceError("no_take_back", "the offer lapsed", 409) from None
            raise

    async def decline_take_back(self, game_id: str, seat: int) -> dict[str, Any]:
        """Decline the other seat's offer, or withdraw one's own."""
        async with self._lock(game_id), self._statements() as session:
            head = await self._playing_head(session, game_id)
            if head.take_back_offer is None or not await repository.withdraw_take_back(
                    session, game_id, head.version):
                raise ServiceError("no_take_back", "no take-back is on offer", 409)
            await session.commit()
            declined = TakeBackChanged(None, head.version, declined_by=seat)
            await self._announce(game_id, declined)
        return declined.state()

    async def _playing_head(self, session: AsyncSession, game_id: str) -> repository.GameHead:
        """The head of a game in play; refusals for any other."""
        head = await repository.game_head(session, game_id)
        if head is None:
            raise game_not_found(game_id)
        _refuse_unstarted_or_closed(head.status)
        if head.status != "active":
            raise ServiceError("game_over", "the game is over", 409)
        return head

    # ------------------------------------------------------------------ after a game
    async def rematch_state(self, game_id: str) -> dict[str, Any]:
        async with self._sessions() as session:
            row = await self._row(session, game_id)
            return _rematch_of(row).state()

    async def offer_rematch(self, game_id: str, seat: int) -> dict[str, Any]:
        """Offer a rematch, or accept the other seat's offer: then a new game starts with the
        same options and the seats swapped, each held by the same token and player."""
        async with self._lock(game_id), self._sessions() as session:
            row = await self._row(session, game_id)
            if row.status in _CLOSED:
                raise ServiceError(row.status, _CLOSED[row.status], 409)
            if row.status != "finished":
                raise ServiceError("not_over", "a rematch is offered once the game is over",
                                   409)
            if row.rematch_id is None and row.origin == "computer":
                await self._start_rematch(session, row)  # the computer accepts at once
            elif row.rematch_id is None and row.rematch_offer in (None, seat):
                row.rematch_offer = seat
                row.updated_at = datetime.now(UTC)
                await session.commit()
            elif row.rematch_id is None:
                await self._start_rematch(session, row)
            rematch = _rematch_of(row)
            if rematch.game_id is not None and row.origin == "computer":
                self._started(rematch.game_id)  # before anyone hears of it
            # Told with the lock held: of two seats asking at once, the one that wrote
            # first is told first.
            await self._announce(game_id, rematch)
        if rematch.game_id is not None:
            players = await self._players_of_now(game_id)
            await self._lobby_changed(public=row.listed, players=players)
        return rematch.state()

    async def decline_rematch(self, game_id: str, seat: int) -> dict[str, Any]:
        """Decline the other seat's offer, or withdraw one's own."""
        async with self._lock(game_id), self._sessions() as session:
            row = await self._row(session, game_id)
            if row.rematch_id is not None:
                raise ServiceError("rematch_started", "the rematch has already started", 409)
            if row.rematch_offer is None:
                raise ServiceError("no_offer", "no rematch is on offer", 409)
            row.rematch_offer = None
            await session.commit()
            declined = _rematch_of(row, declined_by=seat)
            await self._announce(game_id, declined)
        return declined.state()

    async def _start_rematch(self, session: AsyncSession, row: GameRow) -> None:
        # A game against the computer stays one (its rematches too are accepted at once).
        origin = "computer" if row.origin == "computer" else "rematch"
        rematch = new_game_row(row.options, status="active", origin=origin,
                               listed=row.listed, seed=self._seeds(),
                               time_control=row.time_control, now=self.wall.now(),
                               rated=row.rated,
                               first_decision=None if origin == "computer" else
                               self._first_decision_time(row.time_control))
        claimed = await repository.claim_rematch(session, row.id, rematch.id,
                                                 offered_by=row.rematch_offer)
        if not claimed:  # another server started it a moment ago
            await session.rollback()
            await session.refresh(row)
            return
        session.add(rematch)
        await session.flush()
        for old in await repository.get_seats(session, row.id):
            session.add(Seat(game_id=rematch.id, seat=1 - old.seat, token_hash=old.token_hash,
                             name=old.name, player_id=old.player_id, computer=old.computer,
                             joined_at=self.wall.now()))
        await session.commit()
        await session.refresh(row)

    # ------------------------------------------------------------------ admin
    async def abort(self, game_id: str, *, reason: str, client: str | None) -> None:
        """Stop a waiting or running game for good; both players are told, and the admin
        action is logged with it."""
        async with self._lock(game_id):
            async with self._sessions() as session:
                row = await self._row(session, game_id)
                # Write to the game's row first, then read it again: from that write to the
                # commit no other server can commit an action (PostgreSQL holds the row,
                # SQLite the database), so what is checked and recorded is the last word.
                row.updated_at = datetime.now(UTC)
                await session.flush()
                await session.refresh(row)
                if row.status not in ("waiting", "active"):
                    raise ServiceError("not_running", f"the game is {row.status}", 409,
                                       params={"status": row.status})
                session.add(AdminAction(game_id=game_id, kind="abort", client=client,
                                        detail={"reason": reason, "version": row.version,
                                                "was": row.status}))
                row.status, row.abort_cause = "aborted", "admin"
                row.to_act = row.deadline = row.clock_running = None
                await session.commit()
            self._cache.pop(game_id, None)
        await self._tell_aborted(_AbortNotice(game_id, "admin", None, row.listed,
                                              await self._players_of_now(game_id), reason))

    async def abort_by_player(self, game_id: str, seat: int) -> None:
        """``seat`` aborts the game: no result, no rating change. Allowed until both seats
        have made a decision of their own; and to the creator (seat 0) of a game still
        waiting for its second player, which is cancelled (it leaves the lobby, its invite
        says so). Both players are told, on every process."""
        for _ in range(_OUT_OF_TURN_TRIES):
            async with self._lock(game_id), self._statements() as session:
                notice = await self._player_abort(session, game_id, seat)
            if notice is not None:
                await self._tell_aborted(notice)
                return
        raise ServiceError("busy", "the game is moving too fast: nothing was changed; send "
                           "it again", 503, params={"retry_after": 1})

    async def _player_abort(self, session: AsyncSession, game_id: str, seat: int
                            ) -> _AbortNotice | None:
        """The abort written, or None if an action came first (look again)."""
        row = await repository.move_context(session, game_id, None)
        if row is None:
            raise game_not_found(game_id)
        if row.status == "waiting":
            players = [s.player_id for s in await repository.seat_rows(session, game_id)]
            if not await repository.cancel_waiting(session, game_id, self.wall.now()):
                await session.rollback()
                return None  # joined (or ended) meanwhile: look again
            await session.commit()
            self._cache.pop(game_id, None)
            return _AbortNotice(game_id, "cancelled", seat, row.listed, players)
        _refuse_unstarted_or_closed(row.status)
        if row.status != "active":
            raise ServiceError("game_over", "the game is over", 409)
        entry = await self._entry_to_write(session, row)
        if entry.decided.both_made:
            raise ServiceError("abort_too_late", "both players have made a decision: the "
                               "game can no longer be aborted (resign instead)", 409)
        cause, by = "player", seat
        if _first_decision_missed(row, entry, self.wall.now()):  # the deadline came first
            cause, by = "first_move", entry.first_decision() or 0
        return await self._abort_at(session, row, entry, cause, by)

    async def _abort_at(self, session: AsyncSession, row: repository.MoveContext,
                        entry: _Entry, cause: str, seat: int | None) -> _AbortNotice | None:
        """Abort the game at the version ``row`` was read at: what everyone is to be told,
        or None if an action, an ending or another abort came first (nothing written). A
        missed first decision is recorded at its deadline, whenever and by whichever
        process it is noticed."""
        at = row.deadline if cause == "first_move" and row.deadline is not None \
            else self.wall.now()
        written = await repository.abort_game(session, row.game_id, version=entry.version,
                                               cause=cause, seat=seat, now=at)
        if written:
            await session.commit()
        else:
            await session.rollback()
        self._cache.pop(row.game_id, None)
        if not written:
            return None
        return _AbortNotice(row.game_id, cause, seat, row.listed,
                            [s.player_id for s in entry.seats or ()])

    async def _tell_aborted(self, notice: _AbortNotice) -> None:
        """Tell the game's sockets (every process's) and the lobby of an abort committed."""
        await self._announce(notice.game_id,
                             GameAborted(notice.cause, notice.seat, notice.reason))
        await self._lobby_changed(public=notice.listed, players=notice.players)

    def _first_decision_time(self, time_control: dict[str, Any] | TimeControl | None
                             ) -> timedelta:
        """How long a seat has for its first decision in a game between two people."""
        control = time_control if isinstance(time_control, TimeControl | None) \
            else TimeControl.from_json(time_control)
        return first_decision_time(control, self._settings.first_move_seconds)

    async def expired(self, game_id: str, *, listed: bool, creator: str | None,
                      hours: float) -> None:
        """Tell the game's sockets and the lobby that nobody joined the game in time."""
        self._cache.pop(game_id, None)
        await self._announce(game_id, GameExpired(hours))
        await self._lobby_changed(public=listed, players=[creator])

    # ------------------------------------------------------------------ internals
    async def _player(self, session: AsyncSession, player_id: str | None) -> Player | None:
        if player_id is None:
            return None
        player = await session.get(Player, player_id)
        if player is None:
            raise ServiceError("no_player", "this session's player is unknown; pick a name",
                               401)
        return player

    async def _lobby_changed(self, *, public: bool, players: list[str | None]) -> None:
        """Tell lobby listeners what to look at again: the public lists, and the own games
        of these players."""
        await self._announce(LOBBY_CHANNEL, LobbyChanged.of(public=public, players=players))

    async def _announce(self, topic: str, notice: GameNotice | LobbyChanged) -> None:
        """Tell the listeners after a commit. The change is done whatever happens here: a
        failure (the database busy a moment) is logged, never turned into a refusal of
        what was already committed."""
        try:
            await self._pubsub.publish(topic, notice.to_json())
        except Exception:
            log.exception("could not announce a change on %s", topic)

    async def _players_of_now(self, game_id: str) -> list[str | None]:
        """The game's players, for an announcement after a commit ([] if unreadable)."""
        try:
            async with self._sessions() as session:
                return [s.player_id for s in await repository.get_seats(session, game_id)]
        except Exception:
            log.exception("could not read the players of %s", game_id)
            return []

    @contextlib.asynccontextmanager
    async def _transaction(self, session: AsyncSession) -> AsyncIterator[AsyncSession]:
        """A session whose statements make one transaction: ``session`` itself if it is one
        (SQLite's, which a second connection could not write beside), or a new one if
        ``session``'s statements each commit alone (PostgreSQL's move path)."""
        if self._statements is self._sessions:
            yield session
            return
        # Its connection back to the pool first: a move holds one connection at a time,
        # which the pool's size (and ``moves_working``) counts on.
        await session.close()
        async with self._sessions() as transaction:
            yield transaction

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _row(self, session: AsyncSession, game_id: str) -> GameRow:
        row = await repository.get_game(session, game_id)
        if row is None:
            raise game_not_found(game_id)
        return row

    async def _synced(self, session: AsyncSession, game_id: str,
                      row: _Dealt | None = None, *, known_version: int | None = None,
                      for_a_state: bool = False) -> _Entry:
        """The cached replay, brought up to the committed log (another server may have
        appended to it). Call with the game's lock held; pass the game's ``row`` if it was
        already read (it is needed only to set up a game not in the cache), and the
        version it was read at (``known_version``: a replay there need not read the log,
        and one behind reads it up to there only, so that the game is as the row says: a
        move committed since is taken in later, by its doorbell or the next read)."""
        entry = self._cache.get(game_id)
        if entry is None:
            row = row or await self._row(session, game_id)
            entry = _Entry(_fresh_game(row), TimeControl.from_json(row.time_control))
            self._cache[game_id] = entry
            while len(self._cache) > self._settings.game_cache_size:
                self._cache.popitem(last=False)
        self._cache.move_to_end(game_id)
        if known_version is None or entry.version != known_version:
            for action in await repository.actions_after(session, game_id, entry.version,
                                                         up_to=known_version):
                events = entry.game.apply(action.action)
                decided = entry.decided.after(action.seat, action.action)
                clocks = None if action.clock0_ms is None or action.clock1_ms is None else \
                    Clocks((action.clock0_ms, action.clock1_ms), action.created_at,
                           entry.running_after(decided))
                self._taken_in(entry, Applied(game_id, entry.game, action.seq, action.seat,
                                              action.action, action.notation, events,
                                              decided, clocks, for_a_state=for_a_state))
        if row is not None and row.version == entry.version and entry.control is not None:
            # The row read at this version says when the current decision began (a game
            # just started has no action yet that says it).
            entry.clocks = clocks_of(row)
        return entry
