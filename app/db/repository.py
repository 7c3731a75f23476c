"""Every query the services make, in one place. Functions take an open session; the caller
owns the transaction."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Integer,
    Select,
    String,
    Table,
    TextClause,
    bindparam,
    case,
    delete,
    false,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement

from .models import (
    AdminAction,
    Game,
    GameAction,
    GameAnalysis,
    Player,
    RateCount,
    RatingChange,
    Seat,
    SeatResult,
    SeatWonder,
    UTCDateTime,
)

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""The shape of every game id (``secrets.token_urlsafe``). Anything else names no game and
is not sent to the database, which may refuse it (PostgreSQL refuses a NUL)."""


async def get_game(session: AsyncSession, game_id: str) -> Game | None:
    if not GAME_ID.fullmatch(game_id):
        return None
    return await session.get(Game, game_id)


async def get_seats(session: AsyncSession, game_id: str) -> Sequence[Seat]:
    result = await session.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat))
    return result.all()


async def actions_after(session: AsyncSession, game_id: str, seq: int,
                        up_to: int | None = None) -> Sequence[GameAction]:
    """The log entries after ``seq`` (and up to ``up_to``, when given), in order."""
    statement = select(GameAction).where(GameAction.game_id == game_id, GameAction.seq > seq)
    if up_to is not None:
        statement = statement.where(GameAction.seq <= up_to)
    result = await session.scalars(statement.order_by(GameAction.seq))
    return result.all()


@dataclass(frozen=True)
class MoveContext:
    """What a move needs to know of its game, read in one statement (one snapshot): the
    game's head and the action already logged under the move's client id, if any."""

    game_id: str
    status: str
    version: int
    seed: int
    options: dict[str, Any]
    listed: bool
    to_act: int | None
    time_control: dict[str, Any] | None
    clock0_ms: int | None
    clock1_ms: int | None
    clock_since: datetime | None
    clock_running: int | None
    deadline: datetime | None
    earlier_seq: int | None
    earlier_seat: int | None
    earlier_action: dict[str, Any] | None


_GAME: Table = Game.__table__  # type: ignore[assignment]
_ACTION: Table = GameAction.__table__  # type: ignore[assignment]
"""The tables themselves, for Core statements on the move path (no ORM unit of work)."""
_CLOCK_COLUMNS = (_GAME.c.to_act, _GAME.c.time_control, _GAME.c.clock0_ms, _GAME.c.clock1_ms,
                  _GAME.c.clock_since, _GAME.c.clock_running, _GAME.c.deadline)
"""What the clocks are read from: the seat to act, the clocks as they were when its
decision began, the seat whose clock runs, and when the seat to act runs out of time."""


def _move_context_statement(by_client_id: bool) -> Select[Any]:
    earlier = _ACTION.alias("earlier")
    # No client id names no earlier copy (== None would match every id-less action).
    same_client = earlier.c.client_id == bindparam("client_id") if by_client_id else false()
    return (select(_GAME.c.id, _GAME.c.status, _GAME.c.version, _GAME.c.seed, _GAME.c.options,
                   _GAME.c.listed, *_CLOCK_COLUMNS, earlier.c.seq, earlier.c.seat,
                   earlier.c.action)
            .select_from(_GAME.outerjoin(earlier, (earlier.c.game_id == _GAME.c.id)
                                         & same_client))
            .where(_GAME.c.id == bindparam("game_id")))


# Built once: a statement made per call costs more Python than its round trip.
_MOVE_CONTEXT = {True: _move_context_statement(True), False: _move_context_statement(False)}


async def move_context(session: AsyncSession, game_id: str,
                       client_id: str | None) -> MoveContext | None:
    """The game's head and the earlier copy of the move (by client id) together: a copy
    committed by another server before this read is seen with the version it made; one
    committed after it makes this move's insert fail, and is read again then."""
    if not GAME_ID.fullmatch(game_id):
        return None
    found = (await session.execute(_MOVE_CONTEXT[client_id is not None],
                                   {"game_id": game_id, "client_id": client_id})
             ).one_or_none()
    return None if found is None else MoveContext(*found)


@dataclass(frozen=True)
class GameHead:
    """What a joining socket needs of its game's row (a Core read: no ORM identity map)."""

    status: str
    version: int
    seed: int
    options: dict[str, Any]
    rematch_offer: int | None
    rematch_id: str | None
    take_back_offer: int | None
    to_act: int | None
    time_control: dict[str, Any] | None
    clock0_ms: int | None
    clock1_ms: int | None
    clock_since: datetime | None
    clock_running: int | None
    deadline: datetime | None
    abort_cause: str | None
    abort_seat: int | None


@dataclass(frozen=True)
class SeatRow:
    """Who holds a seat (a Core read)."""

    seat: int
    token_hash: str
    """SHA-256 of the seat's token."""
    player_id: str | None
    computer: str | None = None
    """The bot's level when the computer plays the seat."""


_SEAT: Table = Seat.__table__  # type: ignore[assignment]
_HEAD_COLUMNS = (_GAME.c.status, _GAME.c.version, _GAME.c.seed, _GAME.c.options,
                 _GAME.c.rematch_offer, _GAME.c.rematch_id, _GAME.c.take_back_offer,
                 *_CLOCK_COLUMNS, _GAME.c.abort_cause, _GAME.c.abort_seat)
_HEAD = select(*_HEAD_COLUMNS).where(_GAME.c.id == bindparam("game_id"))
_HEAD_AND_SEATS = (
    select(*_HEAD_COLUMNS, _SEAT.c.seat, _SEAT.c.token_hash, _SEAT.c.player_id,
           _SEAT.c.computer)
    .select_from(_GAME.outerjoin(_SEAT, _SEAT.c.game_id == _GAME.c.id))
    .where(_GAME.c.id == bindparam("game_id")).order_by(_SEAT.c.seat))
_SEATS = (select(_SEAT.c.seat, _SEAT.c.token_hash, _SEAT.c.player_id, _SEAT.c.computer)
          .where(_SEAT.c.game_id == bindparam("game_id")).order_by(_SEAT.c.seat))


async def seat_rows(session: AsyncSession, game_id: str) -> list[SeatRow]:
    return [SeatRow(*row) for row in await session.execute(_SEATS, {"game_id": game_id})]


async def game_head(session: AsyncSession, game_id: str) -> GameHead | None:
    if not GAME_ID.fullmatch(game_id):
        return None
    found = (await session.execute(_HEAD, {"game_id": game_id})).one_or_none()
    return None if found is None else GameHead(*tuple(found))


async def head_and_seats(session: AsyncSession, game_id: str
                         ) -> tuple[GameHead, list[SeatRow]] | None:
    """The game's head and its seats, in one statement."""
    if not GAME_ID.fullmatch(game_id):
        return None
    rows = (await session.execute(_HEAD_AND_SEATS, {"game_id": game_id})).all()
    if not rows:
        return None
    width = len(_HEAD_COLUMNS)
    return (GameHead(*tuple(rows[0])[:width]),
            [SeatRow(*row[width:]) for row in rows if row[width] is not None])


@dataclass(frozen=True)
class Move:
    """A move to record: the log's next entry and the game's row after it."""

    game_id: str
    version: int
    seat: int
    action: dict[str, Any]
    notation: str
    client_id: str | None
    status: str
    to_act: int | None
    winner: int | None
    victory: str | None
    now: datetime
    """When it is made (by the database's clock): the log entry's time, and the moment
    the next decision began."""
    clocks: tuple[int, int] | None = None
    """A timed game's clocks as the move leaves them (milliseconds each seat has left)."""
    deadline: datetime | None = None
    """When the next seat to act runs out of time (its flag, or its first decision's
    deadline)."""
    running: int | None = None
    """The seat whose clock runs from the move on (None during a first decision)."""
    offer: int | None = None
    """For a take-back: written only while this seat's offer stands."""


_PROGRESS = (
    update(_GAME)
    .where(_GAME.c.id == bindparam("game_id"), _GAME.c.status == "active",
           _GAME.c.version == bindparam("previous"),
           or_(bindparam("offer", type_=Integer).is_(None),
               _GAME.c.take_back_offer == bindparam("offer", type_=Integer)))
    .values(version=bindparam("version"), status=bindparam("status"),
            to_act=bindparam("to_act"), winner=bindparam("winner"),
            victory=bindparam("victory"), take_back_offer=None, updated_at=bindparam("now"),
            clock0_ms=bindparam("clock0_ms"), clock1_ms=bindparam("clock1_ms"),
            clock_since=bindparam("clock_since"), deadline=bindparam("deadline"),
            clock_running=bindparam("clock_running"))
)
_APPEND = insert(_ACTION).values(
    game_id=bindparam("game_id"), seq=bindparam("version"), seat=bindparam("seat"),
    action=bindparam("action"), notation=bindparam("notation"),
    client_id=bindparam("client_id"), created_at=bindparam("now"),
    clock0_ms=bindparam("clock0_ms"), clock1_ms=bindparam("clock1_ms"))


def _move_in_one_statement(notices: int) -> TextClause:
    """PostgreSQL: the game's row, guarded by its version, then the log entry and the
    notifications only if that row was written; one statement, one round trip."""
    bells = ", ".join(f"pg_notify(:channel_{i}, :payload_{i})" for i in range(notices))
    # The bells name ``moved``: the planner must ring them after the update, for its row
    # alone (unrelated, it may evaluate them first, even when nothing was written).
    return text(f"""
        WITH moved AS (
            UPDATE game SET version = :version, status = :status, to_act = :to_act,
                   winner = :winner, victory = :victory, take_back_offer = NULL,
                   updated_at = :now, clock0_ms = :clock0_ms, clock1_ms = :clock1_ms,
                   clock_since = :clock_since, deadline = :deadline,
                   clock_running = :clock_running
            WHERE id = :game_id AND status = 'active' AND version = :previous
              AND (CAST(:offer AS INTEGER) IS NULL OR take_back_offer = :offer)
            RETURNING id)
        INSERT INTO game_action (game_id, seq, seat, action, notation, client_id, created_at,
                                 clock0_ms, clock1_ms)
        SELECT moved.id, :version, :seat, CAST(:action AS JSON), :notation, :client_id, :now,
               :clock0_ms, :clock1_ms
        FROM moved{f" CROSS JOIN LATERAL (SELECT {bells} WHERE moved.id IS NOT NULL) AS bells"
                   if notices else ""}
        RETURNING seq""").bindparams(
        bindparam("version", type_=Integer), bindparam("seat", type_=Integer),
        bindparam("to_act", type_=Integer), bindparam("winner", type_=Integer),
        bindparam("previous", type_=Integer), bindparam("offer", type_=Integer),
        bindparam("status", type_=String),
        bindparam("victory", type_=String), bindparam("notation", type_=String),
        bindparam("client_id", type_=String), bindparam("action", type_=JSON),
        bindparam("now", type_=UTCDateTime()), bindparam("deadline", type_=UTCDateTime()),
        bindparam("clock_since", type_=UTCDateTime()),
        bindparam("clock0_ms", type_=BigInteger), bindparam("clock1_ms", type_=BigInteger),
        bindparam("clock_running", type_=Integer))


_MOVE_IN_ONE_STATEMENT = {notices: _move_in_one_statement(notices) for notices in (0, 1, 2)}


async def record_move(session: AsyncSession, move: Move,
                      notices: Sequence[tuple[str, str]] = ()) -> bool:
    """Append ``move`` to its game's log and write the game's progress; False (nothing
    written) unless the game is still active at the version before. The row stays locked
    to the commit: a second server moving the same game waits, then finds the version
    moved on. ``notices`` (channel, payload: PostgreSQL's NOTIFY) go out with the move,
    if and only if it was written."""
    values = {"game_id": move.game_id, "previous": move.version - 1, "version": move.version,
              "seat": move.seat, "action": move.action, "notation": move.notation,
              "client_id": move.client_id, "status": move.status, "to_act": move.to_act,
              "winner": move.winner, "victory": move.victory, "offer": move.offer,
              "now": move.now, "deadline": move.deadline,
              "clock_since": move.now if move.clocks else None,
              "clock_running": move.running,
              "clock0_ms": move.clocks[0] if move.clocks else None,
              "clock1_ms": move.clocks[1] if move.clocks else None}
    if session.get_bind().dialect.name == "postgresql":
        for i, (channel, payload) in enumerate(notices):
            values[f"channel_{i}"], values[f"payload_{i}"] = channel, payload
        written = await session.execute(_MOVE_IN_ONE_STATEMENT[len(notices)], values)
        return written.first() is not None
    if notices:
        raise ValueError("notifications need PostgreSQL")
    progressed = await session.execute(_PROGRESS, values)
    if not progressed.rowcount:  # type: ignore[attr-defined]
        return False
    await session.execute(_APPEND, values)
    return True


async def abort_game(session: AsyncSession, game_id: str, *, version: int, cause: str,
                     seat: int | None, now: datetime) -> bool:
    """Abort a game still in play at ``version``: False (nothing written) if an action
    came first, or the game ended or was aborted. Of processes aborting at once (a missed
    first decision noticed by each), exactly one writes."""
    result = await session.execute(
        update(_GAME).where(_GAME.c.id == game_id, _GAME.c.status == "active",
                            _GAME.c.version == version)
        .values(status="aborted", abort_cause=cause, abort_seat=seat, to_act=None,
                deadline=None, clock_running=None, take_back_offer=None, updated_at=now))
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def cancel_waiting(session: AsyncSession, game_id: str, now: datetime) -> bool:
    """Its creator cancels a game still waiting for its second player: False if it no
    longer waits (joined, expired, aborted)."""
    if not GAME_ID.fullmatch(game_id):
        return False
    result = await session.execute(
        update(_GAME).where(_GAME.c.id == game_id, _GAME.c.status == "waiting")
        .values(status="aborted", abort_cause="cancelled", abort_seat=0, updated_at=now))
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def offer_take_back(session: AsyncSession, game_id: str, seat: int, version: int
                          ) -> bool:
    """Record ``seat``'s take-back offer; False if the game is no longer active at
    ``version`` (an action or an abort came first)."""
    result = await session.execute(
        update(_GAME).where(_GAME.c.id == game_id, _GAME.c.status == "active",
                            _GAME.c.version == version)
        .values(take_back_offer=seat, updated_at=datetime.now(UTC)))
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def withdraw_take_back(session: AsyncSession, game_id: str, version: int) -> bool:
    """Clear the take-back offer standing at ``version``; False if there was none."""
    result = await session.execute(
        update(_GAME).where(_GAME.c.id == game_id, _GAME.c.version == version,
                            _GAME.c.take_back_offer.is_not(None))
        .values(take_back_offer=None, updated_at=datetime.now(UTC)))
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def claim_rematch(session: AsyncSession, game_id: str, rematch_id: str, *,
                        offered_by: int | None) -> bool:
    """Record the rematch game; False if one was recorded first, or the offer being
    accepted was withdrawn meanwhile (maybe on another server)."""
    result = await session.execute(
        update(Game).where(Game.id == game_id, Game.rematch_id.is_(None),
                           Game.rematch_offer == offered_by).values(
            rematch_id=rematch_id, rematch_offer=None, updated_at=datetime.now(UTC))
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def abort_of(session: AsyncSession, game_id: str) -> AdminAction | None:
    """The admin action that aborted the game, if one did."""
    return await session.scalar(
        select(AdminAction).where(AdminAction.game_id == game_id, AdminAction.kind == "abort")
        .order_by(AdminAction.id.desc()).limit(1))


async def seats_of(session: AsyncSession, game_ids: Sequence[str]) -> dict[str, list[Seat]]:
    """The seats of each game, by game id."""
    out: dict[str, list[Seat]] = {game_id: [] for game_id in game_ids}
    if game_ids:
        result = await session.scalars(
            select(Seat).where(Seat.game_id.in_(game_ids)).order_by(Seat.game_id, Seat.seat))
        for seat in result:
            out[seat.game_id].append(seat)
    return out


@dataclass(frozen=True)
class Account:
    """What others see of a registered player: their username and rating."""

    username: str
    rating: float
    deviation: float
    rated_at: datetime | None


async def accounts_of(session: AsyncSession, player_ids: Sequence[str | None]
                      ) -> dict[str, Account]:
    """The registered players among ``player_ids``, by id (guests are left out)."""
    wanted = sorted({pid for pid in player_ids if pid is not None})
    if not wanted:
        return {}
    rows = await session.execute(
        select(Player.id, Player.username, Player.rating, Player.rating_deviation,
               Player.rated_at)
        .where(Player.id.in_(wanted), Player.username.is_not(None)))
    return {pid: Account(username, rating, deviation, rated_at)
            for pid, username, rating, deviation, rated_at in rows if username is not None}


async def listed_games(session: AsyncSession, status: str, limit: int) -> Sequence[Game]:
    """Lobby games of one status, the most recently changed first."""
    result = await session.scalars(
        select(Game).where(Game.listed.is_(True), Game.status == status)
        .order_by(Game.updated_at.desc(), Game.id).limit(limit))
    return result.all()


async def player_games(session: AsyncSession, player_id: str, limit: int) -> Sequence[Game]:
    """The games a player holds a seat in, unfinished ones first, then the newest."""
    result = await session.scalars(
        select(Game).join(Seat, Seat.game_id == Game.id).where(Seat.player_id == player_id)
        .order_by(Game.status.in_(("finished", "aborted", "expired")), Game.updated_at.desc(),
                  Game.id)
        .limit(limit))
    return result.all()


@dataclass(frozen=True)
class Flag:
    """A timed game whose seat to act runs out of time at ``deadline``."""

    game_id: str
    deadline: datetime


async def flags_due(session: AsyncSession, by: datetime, limit: int) -> list[Flag]:
    """Games in play whose flag falls by ``by``, the soonest first."""
    rows = await session.execute(
        select(_GAME.c.id, _GAME.c.deadline)
        .where(_GAME.c.deadline <= by, _GAME.c.status == "active")
        .order_by(_GAME.c.deadline).limit(limit))
    return [Flag(*row) for row in rows]


async def seat_left(session: AsyncSession, game_id: str, seat: int, now: datetime) -> None:
    """The seat's last socket (on this server) closed ``now``."""
    await session.execute(update(_SEAT).where(_SEAT.c.game_id == game_id, _SEAT.c.seat == seat)
                          .values(left_at=now))


async def away_since(session: AsyncSession, game_id: str, seat: int) -> datetime | None:
    """Since when the seat may have been away: its last socket's closing, but not before
    the game started (its second seat taken); None if there is no such seat."""
    seats = {number: (left, joined) for number, left, joined in await session.execute(
        select(_SEAT.c.seat, _SEAT.c.left_at, _SEAT.c.joined_at)
        .where(_SEAT.c.game_id == game_id))}
    if seat not in seats or len(seats) < 2:
        return None
    started: datetime = max(joined for _, joined in seats.values())
    left: datetime | None = seats[seat][0]
    return started if left is None else max(left, started)


async def seats_left(session: AsyncSession, now: datetime | ColumnElement[Any],
                     where: ColumnElement[bool] | None = None) -> None:
    """The seats of games in play had their sockets closed ``now`` (servers stopped
    without closing them): only those ``where`` says, if given."""
    playing = select(_GAME.c.id).where(_GAME.c.status == "active")
    statement = update(_SEAT).where(_SEAT.c.game_id.in_(playing)).values(left_at=now)
    if where is not None:
        statement = statement.where(where)
    await session.execute(statement)


# ---------------------------------------------------------------- retries, expiry, limits
@dataclass(frozen=True)
class KeyedSeat:
    """A seat taken by a request with an idempotency key."""

    game_id: str
    seat: int
    token_hash: str
    player_id: str | None


async def touch_waiting(session: AsyncSession, game_id: str, now: datetime) -> bool:
    """Write to the game's row if it still waits for its second player (so that nothing
    else changes it until the commit): whether it does."""
    if not GAME_ID.fullmatch(game_id):
        return False
    result = await session.execute(update(_GAME).where(
        _GAME.c.id == game_id, _GAME.c.status == "waiting").values(updated_at=now))
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def seat_of_request(session: AsyncSession, request_hash: str) -> KeyedSeat | None:
    """The seat the request with this key's hash took, if one did."""
    row = (await session.execute(
        select(_SEAT.c.game_id, _SEAT.c.seat, _SEAT.c.token_hash, _SEAT.c.player_id)
        .where(_SEAT.c.request_hash == request_hash))).first()
    return None if row is None else KeyedSeat(*row)


@dataclass(frozen=True)
class Expired:
    game_id: str
    listed: bool
    player_id: str | None
    """The creator's player, if the game was created with a session."""


async def expire_unjoined(session: AsyncSession, created_before: datetime, now: datetime,
                          limit: int) -> list[Expired]:
    """End games still waiting for their second player that were created before
    ``created_before``: they are ``expired``. The update re-checks the status, so of
    processes sweeping at once each game is expired by one."""
    waiting = select(_GAME.c.id).where(_GAME.c.status == "waiting",
                                       _GAME.c.created_at < created_before).limit(limit)
    ids = list((await session.scalars(waiting)).all())
    if not ids:
        return []
    result = await session.execute(
        update(_GAME).where(_GAME.c.id.in_(ids), _GAME.c.status == "waiting")
        .values(status="expired", updated_at=now).returning(_GAME.c.id, _GAME.c.listed))
    expired: dict[str, bool] = dict(result.all())
    creators = dict((await session.execute(
        select(_SEAT.c.game_id, _SEAT.c.player_id)
        .where(_SEAT.c.game_id.in_(list(expired)), _SEAT.c.seat == 0))).all())
    return [Expired(g, listed, creators.get(g)) for g, listed in expired.items()]


_RATE: Table = RateCount.__table__  # type: ignore[assignment]


async def count_event(session: AsyncSession, bucket: str, key: str, window_start: datetime
                      ) -> int:
    """Count one event of ``key`` in ``bucket``'s window that starts at ``window_start``:
    the count after, in one statement."""
    dialect = session.get_bind().dialect.name
    insert_into = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert_into(_RATE).values(bucket=bucket, key=key, window_start=window_start,
                                          count=1)
    upsert = statement.on_conflict_do_update(
        index_elements=[_RATE.c.bucket, _RATE.c.key, _RATE.c.window_start],
        set_={"count": _RATE.c.count + 1})
    return int((await session.execute(upsert.returning(_RATE.c.count))).scalar_one())


async def forget_counts(session: AsyncSession, bucket: str, key: str) -> None:
    await session.execute(delete(_RATE).where(_RATE.c.bucket == bucket, _RATE.c.key == key))


async def forget_counts_before(session: AsyncSession, before: datetime) -> int:
    """Drop the counts of windows that started before ``before`` (long over)."""
    result = await session.execute(delete(_RATE).where(_RATE.c.window_start < before))
    return int(result.rowcount)  # type: ignore[attr-defined]


# ---------------------------------------------------------------- results and ratings
@dataclass(frozen=True)
class EndedGame:
    """What the end of a game needs of its rows."""

    rated: bool
    started_at: datetime
    """When its second seat was taken."""
    players: list[str | None]
    """The player of each seat."""
    against_computer: bool = False


async def ended_game(session: AsyncSession, game_id: str) -> EndedGame:
    rated, origin = (await session.execute(select(_GAME.c.rated, _GAME.c.origin)
                                           .where(_GAME.c.id == game_id))).one()
    # FOR SHARE: a login claiming a guest's seats waits for the summaries naming the guest
    # to be written (and then moves them too), or is waited for.
    seats = (await session.execute(select(_SEAT.c.seat, _SEAT.c.player_id, _SEAT.c.joined_at)
                                   .where(_SEAT.c.game_id == game_id)
                                   .order_by(_SEAT.c.seat).with_for_update(read=True))).all()
    return EndedGame(bool(rated), max(joined for _, _, joined in seats),
                     [player for _, player, _ in seats], origin == "computer")


@dataclass(frozen=True)
class SeatSummary:
    """One seat of a finished game, as its player's record shows it (from the engine)."""

    seat: int
    result: str
    """``win``, ``loss`` or ``shared``."""
    victory: str
    first: bool
    wonders: list[str]
    built: list[str]
    points: int


@dataclass(frozen=True)
class SeatResultRow:
    """A seat's summary and what the game's rows add: who held it, how long and whether
    rated the game was, when it ended."""

    summary: SeatSummary
    player_id: str | None
    actions: int
    seconds: int
    rated: bool
    finished_at: datetime


_SEAT_RESULT: Table = SeatResult.__table__  # type: ignore[assignment]
_RATING_CHANGE: Table = RatingChange.__table__  # type: ignore[assignment]
_SEAT_WONDER: Table = SeatWonder.__table__  # type: ignore[assignment]
_PLAYER: Table = Player.__table__  # type: ignore[assignment]


async def add_seat_results(session: AsyncSession, game_id: str,
                           rows: Sequence[SeatResultRow]) -> None:
    """Each seat's summary, and the wonders it drafted (``wonders``; ``built`` of them)."""
    await session.execute(insert(_SEAT_RESULT), [
        {"game_id": game_id, "seat": row.summary.seat, "player_id": row.player_id,
         "result": row.summary.result, "victory": row.summary.victory,
         "first": row.summary.first, "points": row.summary.points, "actions": row.actions,
         "seconds": row.seconds, "rated": row.rated, "finished_at": row.finished_at}
        for row in rows])
    drafted = [{"game_id": game_id, "seat": row.summary.seat, "wonder": wonder,
                "built": wonder in row.summary.built}
               for row in rows for wonder in row.summary.wonders]
    if drafted:
        await session.execute(insert(_SEAT_WONDER), drafted)


async def finished_unsummarised(session: AsyncSession, limit: int,
                                 leaving_out: Collection[str] = ()) -> list[str]:
    """Finished games with no seat summary (but those ``leaving_out``, and the games
    against the computer, which have none), the oldest first."""
    summarised = select(_SEAT_RESULT.c.game_id).where(_SEAT_RESULT.c.game_id == _GAME.c.id)
    statement = select(_GAME.c.id).where(_GAME.c.status == "finished",
                                         _GAME.c.origin != "computer", ~summarised.exists())
    if leaving_out:
        statement = statement.where(_GAME.c.id.not_in(list(leaving_out)))
    return list((await session.scalars(statement.order_by(_GAME.c.updated_at).limit(limit)))
                .all())


async def game_and_log(session: AsyncSession, game_id: str
                       ) -> tuple[Game, list[dict[str, Any]], datetime] | None:
    """A game's row, its log's actions in order, and when its last action was made (the
    row's last change for a game with none)."""
    row = await get_game(session, game_id)
    if row is None:
        return None
    entries = await actions_after(session, game_id, 0)
    return (row, [entry.action for entry in entries],
            entries[-1].created_at if entries else row.updated_at)


Glicko = tuple[float, float, float]
"""A stored rating: (rating, deviation, volatility)."""


async def ratings_for_update(session: AsyncSession, player_ids: Sequence[str]
                             ) -> dict[str, tuple[Glicko, datetime | None]]:
    """The players' ratings and when each last changed, their rows locked to the commit
    (in the order of their ids, so two games ending at once over the same players cannot
    deadlock). The lock is FOR NO KEY UPDATE, what the rating's update takes anyway: it
    leaves alone the key-share locks that rows referring to a player (seats, results)
    take."""
    rows = await session.execute(
        select(_PLAYER.c.id, _PLAYER.c.rating, _PLAYER.c.rating_deviation,
               _PLAYER.c.rating_volatility, _PLAYER.c.rated_at)
        .where(_PLAYER.c.id.in_(sorted(player_ids))).order_by(_PLAYER.c.id)
        .with_for_update(key_share=True))  # not FOR KEY SHARE: that needs read=True
    return {pid: ((rating, deviation, volatility), rated_at)
            for pid, rating, deviation, volatility, rated_at in rows}


@dataclass(frozen=True)
class RatingRow:
    """One player's rating change from one game."""

    game_id: str
    player_id: str
    seat: int
    score: float
    before: Glicko
    after: Glicko
    opponent_rating: float
    """The opponent's rating before the game."""
    now: datetime


async def game_rating_changes(session: AsyncSession, game_id: str
                              ) -> list[tuple[int, float, float]]:
    """(seat, rating before, rating after) of each rated player of a finished game."""
    rows = await session.execute(
        select(_RATING_CHANGE.c.seat, _RATING_CHANGE.c.rating_before,
               _RATING_CHANGE.c.rating_after)
        .where(_RATING_CHANGE.c.game_id == game_id).order_by(_RATING_CHANGE.c.seat))
    return [tuple(row) for row in rows]


async def rate(session: AsyncSession, change: RatingRow) -> None:
    """Record the change in the player's history and set their rating. The history's key
    (game, player) refuses a second rating of the same result."""
    rating, deviation, volatility = change.after
    await session.execute(insert(_RATING_CHANGE).values(
        game_id=change.game_id, player_id=change.player_id, seat=change.seat,
        score=change.score, rating_before=change.before[0],
        deviation_before=change.before[1], rating_after=rating, deviation_after=deviation,
        volatility_after=volatility, opponent_rating=change.opponent_rating,
        created_at=change.now))
    await session.execute(update(_PLAYER).where(_PLAYER.c.id == change.player_id).values(
        rating=rating, rating_deviation=deviation, rating_volatility=volatility,
        rated_games=_PLAYER.c.rated_games + 1, rated_at=change.now))


# ---------------------------------------------------------------- leaderboard, profiles
@dataclass(frozen=True)
class Ranked:
    username: str
    rating: float
    deviation: float
    games: int
    rated_at: datetime | None


async def leaderboard(session: AsyncSession, min_games: int, offset: int, limit: int
                      ) -> tuple[int, list[Ranked]]:
    """Accounts with at least ``min_games`` rated games, the highest rating first (then the
    most games, then the username: a stable order to page through): how many there are,
    and those on the page."""
    ranked = (_PLAYER.c.username.is_not(None), _PLAYER.c.rated_games >= min_games)
    total = int(await session.scalar(select(func.count()).select_from(_PLAYER)
                                     .where(*ranked)) or 0)
    rows = await session.execute(
        select(_PLAYER.c.username, _PLAYER.c.rating, _PLAYER.c.rating_deviation,
               _PLAYER.c.rated_games, _PLAYER.c.rated_at).where(*ranked)
        .order_by(_PLAYER.c.rating.desc(), _PLAYER.c.rated_games.desc(), _PLAYER.c.login)
        .offset(offset).limit(limit))
    return total, [Ranked(*tuple(row)) for row in rows]


async def account_by_username(session: AsyncSession, username: str) -> Player | None:
    return await session.scalar(select(Player).where(Player.login == username.lower()))


async def rating_history(session: AsyncSession, player_id: str
                         ) -> list[tuple[datetime, float, str]]:
    """(when, rating after, game id) of each rated game of the player, oldest first."""
    rows = await session.execute(
        select(_RATING_CHANGE.c.created_at, _RATING_CHANGE.c.rating_after,
               _RATING_CHANGE.c.game_id)
        .where(_RATING_CHANGE.c.player_id == player_id)
        .order_by(_RATING_CHANGE.c.created_at, _RATING_CHANGE.c.game_id))
    return [tuple(row) for row in rows]


@dataclass(frozen=True)
class PlayedSeat:
    """One finished game as one of its seats played it."""

    game_id: str
    seat: int
    result: str
    victory: str
    first: bool
    points: int
    actions: int
    seconds: int
    rated: bool
    finished_at: datetime


_PLAYED_COLUMNS = (_SEAT_RESULT.c.game_id, _SEAT_RESULT.c.seat, _SEAT_RESULT.c.result,
                   _SEAT_RESULT.c.victory, _SEAT_RESULT.c.first, _SEAT_RESULT.c.points,
                   _SEAT_RESULT.c.actions, _SEAT_RESULT.c.seconds, _SEAT_RESULT.c.rated,
                   _SEAT_RESULT.c.finished_at)


async def played_seats(session: AsyncSession, player_id: str, limit: int
                       ) -> list[PlayedSeat]:
    """The player's most recent finished games, the most recent first."""
    rows = await session.execute(
        select(*_PLAYED_COLUMNS).where(_SEAT_RESULT.c.player_id == player_id)
        .order_by(_SEAT_RESULT.c.finished_at.desc(), _SEAT_RESULT.c.game_id).limit(limit))
    return [PlayedSeat(*tuple(row)) for row in rows]


_WON = case((_SEAT_RESULT.c.result == "win", 1), else_=0)
_ENDING = case((_SEAT_RESULT.c.result == "shared", "shared"), else_=_SEAT_RESULT.c.victory)
"""How a game ended: its victory, or ``shared``."""


async def results_by_ending(session: AsyncSession, player_id: str
                            ) -> list[tuple[str, str, int]]:
    """(ending, result, games) of one player's finished games."""
    statement = (select(_ENDING, _SEAT_RESULT.c.result, func.count())
                 .where(_SEAT_RESULT.c.player_id == player_id)
                 .group_by(_ENDING, _SEAT_RESULT.c.result))
    return [tuple(row) for row in await session.execute(statement)]


@dataclass(frozen=True)
class Lengths:
    ending: str
    games: int
    actions: float
    seconds: float


async def game_lengths(session: AsyncSession) -> list[Lengths]:
    """Finished games by how they ended: how many, and their mean length."""
    rows = await session.execute(
        select(_ENDING, func.count(), func.avg(_SEAT_RESULT.c.actions),
               func.avg(_SEAT_RESULT.c.seconds))
        .where(_SEAT_RESULT.c.seat == 0).group_by(_ENDING))
    return [Lengths(ending, games, float(actions), float(seconds))
            for ending, games, actions, seconds in rows]


async def first_player_wins(session: AsyncSession) -> int:
    """The games the first player won."""
    return int(await session.scalar(
        select(func.count()).where(_SEAT_RESULT.c.result == "win", _SEAT_RESULT.c.first))
        or 0)


@dataclass(frozen=True)
class WonderTally:
    wonder: str
    drafted: int
    drafted_won: int
    built: int
    built_won: int


async def wonder_tallies(session: AsyncSession, player_id: str | None = None
                         ) -> list[WonderTally]:
    """Per wonder: how often it was drafted and built (by one player, if given), and how
    often its holder won."""
    built = case((_SEAT_WONDER.c.built, 1), else_=0)
    built_won = case((_SEAT_WONDER.c.built & (_SEAT_RESULT.c.result == "win"), 1), else_=0)
    statement = (
        select(_SEAT_WONDER.c.wonder, func.count(), func.sum(_WON), func.sum(built),
               func.sum(built_won))
        .select_from(_SEAT_WONDER.join(_SEAT_RESULT, (_SEAT_RESULT.c.game_id
                                                      == _SEAT_WONDER.c.game_id)
                                       & (_SEAT_RESULT.c.seat == _SEAT_WONDER.c.seat)))
        .group_by(_SEAT_WONDER.c.wonder).order_by(_SEAT_WONDER.c.wonder))
    if player_id is not None:
        statement = statement.where(_SEAT_RESULT.c.player_id == player_id)
    return [WonderTally(wonder, int(a), int(b), int(c), int(d))
            for wonder, a, b, c, d in await session.execute(statement)]


@dataclass(frozen=True)
class Opponent:
    name: str | None
    username: str | None
    rating_change: float | None
    """What the game did to the player's own rating (a rated game)."""


async def opponents(session: AsyncSession, player_id: str, seats: Sequence[PlayedSeat]
                    ) -> dict[str, Opponent]:
    """For each of the player's games (by id): the other seat's name and username, and
    the player's rating change."""
    if not seats:
        return {}
    other = {played.game_id: 1 - played.seat for played in seats}
    names = {(game_id, seat): (name, username) for game_id, seat, name, username in
             await session.execute(
                 select(_SEAT.c.game_id, _SEAT.c.seat, _SEAT.c.name, Player.username)
                 .select_from(_SEAT.outerjoin(_PLAYER, _PLAYER.c.id == _SEAT.c.player_id))
                 .where(_SEAT.c.game_id.in_(list(other))))}
    changes = dict((await session.execute(
        select(_RATING_CHANGE.c.game_id,
               _RATING_CHANGE.c.rating_after - _RATING_CHANGE.c.rating_before)
        .where(_RATING_CHANGE.c.player_id == player_id,
               _RATING_CHANGE.c.game_id.in_(list(other))))).all())
    return {game_id: Opponent(*names.get((game_id, seat), (None, None)), changes.get(game_id))
            for game_id, seat in other.items()}


# ---------------------------------------------------------------- computer players
_ANALYSIS: Table = GameAnalysis.__table__  # type: ignore[assignment]


async def computer_turns(session: AsyncSession, moved_before: datetime, limit: int
                         ) -> list[str]:
    """Games in play where the computer is to act and nothing moved since ``moved_before``:
    the server that should have moved for it may have stopped meanwhile."""
    statement = (
        select(_GAME.c.id)
        .select_from(_GAME.join(_SEAT, (_SEAT.c.game_id == _GAME.c.id)
                                & (_SEAT.c.seat == _GAME.c.to_act)))
        .where(_GAME.c.status == "active", _SEAT.c.computer.is_not(None),
               _GAME.c.updated_at < moved_before)
        .order_by(_GAME.c.updated_at.desc()).limit(limit))
    return list((await session.execute(statement)).scalars())


async def claim_analysis(session: AsyncSession, game_id: str, now: datetime,
                         stale_before: datetime, iterations: int, *, total: int) -> bool:
    """Claim the analysis of a finished game for this server, to read ``total`` positions:
    a new claim, or one left ``working`` since before ``stale_before`` (its server stopped;
    what it had read is dropped). Whether it is ours."""
    dialect = session.get_bind().dialect.name
    insert_into = postgresql.insert if dialect == "postgresql" else sqlite.insert
    claimed = await session.execute(
        insert_into(_ANALYSIS).values(game_id=game_id, status="working", claimed_at=now,
                                      iterations=iterations, total=total)
        .on_conflict_do_nothing(index_elements=[_ANALYSIS.c.game_id]))
    if claimed.rowcount:  # type: ignore[attr-defined]
        return True
    taken_over = await session.execute(
        update(_ANALYSIS).where(_ANALYSIS.c.game_id == game_id,
                                _ANALYSIS.c.status == "working",
                                _ANALYSIS.c.claimed_at < stale_before)
        .values(claimed_at=now, iterations=iterations, total=total, positions=None))
    return bool(taken_over.rowcount)  # type: ignore[attr-defined]


async def note_analysis_progress(session: AsyncSession, game_id: str, claimed_at: datetime,
                                 positions: list[dict[str, Any]]) -> bool:
    """Store the positions read so far, if the claim made at ``claimed_at`` still holds
    (whether it does: if not, another server has taken the analysis over)."""
    result = await session.execute(
        update(_ANALYSIS).where(_ANALYSIS.c.game_id == game_id,
                                _ANALYSIS.c.status == "working",
                                _ANALYSIS.c.claimed_at == claimed_at)
        .values(positions=positions))
    return bool(result.rowcount)  # type: ignore[attr-defined]


async def finish_analysis(session: AsyncSession, game_id: str, claimed_at: datetime,
                          positions: list[dict[str, Any]] | None, now: datetime) -> bool:
    """Store the analysis (None: it failed), if the claim made at ``claimed_at`` still
    holds. Whether it was stored."""
    result = await session.execute(
        update(_ANALYSIS).where(_ANALYSIS.c.game_id == game_id,
                                _ANALYSIS.c.status == "working",
                                _ANALYSIS.c.claimed_at == claimed_at)
        .values(status="done" if positions is not None else "failed",
                positions=positions, finished_at=now))
    return bool(result.rowcount)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Analysis:
    status: str
    iterations: int
    positions: list[dict[str, Any]] | None
    """All of them once ``done``; while ``working``, those read so far."""
    claimed_at: datetime
    total: int | None


async def analysis_of(session: AsyncSession, game_id: str) -> Analysis | None:
    found = (await session.execute(
        select(_ANALYSIS.c.status, _ANALYSIS.c.iterations, _ANALYSIS.c.positions,
               _ANALYSIS.c.claimed_at, _ANALYSIS.c.total)
        .where(_ANALYSIS.c.game_id == game_id))).one_or_none()
    return None if found is None else Analysis(*found)


async def unanalysed(session: AsyncSession, ended_after: datetime, stale_before: datetime,
                     limit: int, min_actions: int) -> list[str]:
    """Games that ended after ``ended_after``, of at least ``min_actions`` actions, with no
    analysis, or with one claimed before ``stale_before`` and never finished: the newest
    first."""
    statement = (
        select(_GAME.c.id)
        .select_from(_GAME.outerjoin(_ANALYSIS, _ANALYSIS.c.game_id == _GAME.c.id))
        .where(_GAME.c.status == "finished", _GAME.c.version >= min_actions,
               _GAME.c.updated_at > ended_after,
               (_ANALYSIS.c.game_id.is_(None))
               | ((_ANALYSIS.c.status == "working")
                  & (_ANALYSIS.c.claimed_at < stale_before)))
        .order_by(_GAME.c.updated_at.desc()).limit(limit))
    return list((await session.execute(statement)).scalars())
