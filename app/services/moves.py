"""Moves: an action submitted for a seat, committed then told; resigning, claiming a win
from an absent opponent, a fallen flag, a missed first decision."""

from __future__ import annotations

import contextlib
import logging
import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import repository
from app.engine import (
    OUT_OF_TURN,
    Action,
    Event,
    Forfeit,
    IllegalActionError,
    MalformedActionError,
    from_json,
    parse,
)

from .clocks import TimeControl, epoch_us
from .errors import ServiceError
from .live import LiveGames
from .notices import LOBBY_CHANNEL, GameAborted, LobbyChanged, Moved
from .replays import (
    _CLOSED,
    Accepted,
    Applied,
    _Entry,
    _played_live,
    _refuse_unstarted_or_closed,
    _resent_as,
    game_not_found,
)
from .results import record_end

log = logging.getLogger(__name__)

_OUT_OF_TURN_TRIES = 5
"""An out-of-turn action is made at the game's version; another process's action landing
first makes it try again, at most this many times."""


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



class Moves(LiveGames):
    """The actions of a game, one at a time."""

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


    async def _playing_head(self, session: AsyncSession, game_id: str) -> repository.GameHead:
        """The head of a game in play; refusals for any other."""
        head = await repository.game_head(session, game_id)
        if head is None:
            raise game_not_found(game_id)
        _refuse_unstarted_or_closed(head.status)
        if head.status != "active":
            raise ServiceError("game_over", "the game is over", 409)
        return head

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
