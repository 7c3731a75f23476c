"""The owner of the games live in this process: a lock per game, the replays (a cache),
and what they are read from and told to.

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
import contextlib
import logging
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db import repository
from app.db.models import Game as GameRow
from app.db.models import Player
from app.db.pubsub import PubSub
from app.engine import Game

from .admission import Admission
from .clocks import Clocks, TimeControl, WallClock, clocks_of, from_epoch_us
from .errors import ServiceError
from .limits import RateLimits
from .notices import LOBBY_CHANNEL, GameNotice, LobbyChanged, Moved
from .replays import (
    Applied,
    AppliedListener,
    Missed,
    Snapshot,
    _Dealt,
    _Entry,
    _fresh_game,
    _ms_left,
    _played_live,
    _rematch_of,
    _without_transactions,
    fresh_seed,
    game_not_found,
)
from .starts import first_decision_time

log = logging.getLogger(__name__)


class LiveGames:
    """Each game's lock and replay, the watchers of what the replays take in, and the
    reading of games (a summary, a socket's state); the parts of the service (moves,
    seating, offers) build on it."""


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

    def _first_decision_time(self, time_control: dict[str, Any] | TimeControl | None
                             ) -> timedelta:
        """How long a seat has for its first decision in a game between two people."""
        control = time_control if isinstance(time_control, TimeControl | None) \
            else TimeControl.from_json(time_control)
        return first_decision_time(control, self._settings.first_move_seconds)


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
