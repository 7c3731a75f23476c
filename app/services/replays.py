"""The game service's vocabulary: a game's row set up and started, a replay (``_Entry``)
and what it takes in (``Applied``), what a joining socket is sent (``Snapshot``), and the
refusals every part of the service shares. (``GameService``: app/services/games.py.)"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db import repository
from app.db.models import Game as GameRow
from app.db.models import Player
from app.engine import ENGINE_VERSION, Action, Event, Game, Options

from .clocks import Clocked, Clocks, TimeControl
from .errors import ServiceError
from .notices import RematchChanged
from .starts import FirstDecisions

log = logging.getLogger(__name__)

Missed = list[list[Event]]
"""The events of each action a client missed, oldest first."""

SEED_BITS = 63
"""Seeds fit a signed 64-bit column."""


def computer_name(level: str) -> str:
    """The name a computer player's seat is shown with (the page words it from the level)."""
    return f"Computer ({level})"


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


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
