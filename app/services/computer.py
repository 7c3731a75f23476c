"""Computer players and the analysis of finished games, thought out in worker processes.

A computer seat moves through :meth:`GameService.submit`, like a player's page: the same
checks, the same log, the same updates. Its client id is ``computer:<version>``, so of two
servers moving for it at once (one caught up with a move the other made), the log takes
one action and the other gets a duplicate ack or a refusal: a computer's move is made
exactly once.

Which server moves? The one that committed the move before (the computer's turn came
with it), or that started the game; and every server's sweep takes over a game where the
computer has been to act for a while (its server may have stopped). The thinking happens
in worker processes at a lower priority, never on the event loop: other games' moves do
not wait for it.

When a game ends, the server that committed its end analyses it: the top bot reads every
position (``app.bots.worker.analyse_position``), once, on as many processes as the server
has cores, each position stored in ``game_analysis`` as soon as it is read (a page shows
the analysis filling in).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import itertools
import logging
import multiprocessing
from collections.abc import AsyncGenerator, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta
from typing import Any, Final, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.bots import LEVELS, TOP_LEVEL
from app.bots.worker import (
    Record,
    analyse_position,
    chosen_versions,
    record_of,
    start_worker,
    think,
)
from app.clock import Clock
from app.config import Settings
from app.db import repository
from app.engine import FORFEITS

from .errors import STORAGE_ERRORS, ServiceError
from .games import Applied, GameService, game_not_found

log = logging.getLogger(__name__)
T = TypeVar("T")

STALLED_AFTER: Final = timedelta(seconds=15)
"""A computer to act for this long with nothing moving: any server's sweep moves for it."""
SWEEP_SECONDS: Final = 5.0
"""How often each server looks for games where the computer has waited too long."""
ANALYSIS_SWEEP_SECONDS: Final = 60.0
ANALYSIS_QUEUE: Final = 100
"""Finished games waiting for this server's analysis worker; more are left to the sweep."""
SUBMIT_TRIES: Final = 4
"""A move refused as ``busy`` or lost to a database error is sent again this often."""
ANALYSIS_CLAIM: Final = timedelta(minutes=30)
"""An analysis claimed this long ago and not stored: its server stopped; another redoes it."""
ANALYSIS_WINDOW: Final = timedelta(days=1)
"""The sweep analyses games that ended within this time (the others were before it ran)."""
MIN_ACTIONS: Final = 10
"""Shorter games (a resignation in the draft) are not analysed."""
MISTAKE: Final = 0.15
"""A drop of the mover's chance of winning at least this large is a mistake."""
MISTAKES_SHOWN: Final = 3
"""At most this many mistakes are marked per seat: the largest."""
_GIVE_UP: Final = ("game_over", "aborted", "not_your_turn", "client_id_reused", "illegal",
                   "time_out", "not_found")
"""Refusals after which there is nothing for the computer to do now."""


def bot_seed(game_id: str, secret: bytes) -> int:
    """The computer's own seed for a game: never from its deal, and not from its public id
    alone (a player could then play the computer's replies out in advance)."""
    digest = hmac.new(secret, f"computer\0{game_id}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def mistakes(positions: list[dict[str, Any]], winner: int | None, *, ended_by_play: bool
             ) -> list[dict[str, Any]]:
    """The actions after which the mover's chance of winning fell most (at least
    :data:`MISTAKE`), up to :data:`MISTAKES_SHOWN` per seat, in the game's order.

    The fall is weighed within the search of the position before the action: its chance
    after its choice against its chance after the action played, both from the mover's
    view. (The next position's search is from the next mover's view, and each search
    rates the seat it searches for a little high: weighed across two searches, a move that
    handed the turn over looked worse than one that kept it, and the search's own choice
    could be called a mistake.) A position read before the search gave each action's
    chance, or where it did not try the action played, is weighed against the next
    position's reading, and the last action by the result when it ended the game (not a
    resignation after it)."""
    final = {0: 0.5, 1: 0.5} if winner is None else {winner: 1.0, 1 - winner: 0.0}
    drops: list[dict[str, Any]] = []
    for index, before in enumerate(positions):
        seat = before["seat"]
        if before.get("played") == before["best"]:
            continue  # the search's own choice
        if before.get("played_chance") is not None:
            chance = before["played_chance"]
        elif index + 1 < len(positions):
            after = positions[index + 1]
            if after["version"] != before["version"] + 1:
                continue  # an action in between was not a position's (a forfeit)
            chance = after["chance"] if after["seat"] == seat else 1.0 - after["chance"]
        elif ended_by_play:
            chance = final[seat]
        else:
            continue
        drop = before["chance"] - chance
        if drop >= MISTAKE:
            drops.append({"version": before["version"] + 1, "seat": seat,
                          "drop": round(drop, 3), "best": before["best"]})
    kept = []
    for seat in (0, 1):
        own = sorted((d for d in drops if d["seat"] == seat), key=lambda d: -d["drop"])
        kept += own[:MISTAKES_SHOWN]
    return sorted(kept, key=lambda d: d["version"])


class Thinkers:
    """The worker processes: one pool for the computer's moves, one for analyses (as many
    processes as asked, one per core by default), whose workers yield the processor to the
    moves' (a lower priority), so that an analysis never keeps a player waiting for the
    computer."""

    NICENESS: Final = {"moves": 10, "analyses": 15}

    def __init__(self, workers: int, analysis_workers: int = 1) -> None:
        self._sizes = {"moves": workers, "analyses": analysis_workers}
        self._pools = {kind: self._pool(size, self.NICENESS[kind])
                       for kind, size in self._sizes.items()}

    @property
    def analysis_workers(self) -> int:
        return self._sizes["analyses"]

    @staticmethod
    def _pool(workers: int, niceness: int) -> Executor:
        # Spawned, not forked: a fork would copy the server's sockets and threads.
        return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=start_worker, initargs=(niceness,))

    async def _run(self, kind: str, fn: Callable[..., T], *args: Any) -> T:
        pool = self._pools[kind]
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            # A worker died (killed?): a new pool for what comes next, made once however
            # many calls were in flight.
            if self._pools[kind] is pool:
                self._pools[kind] = self._pool(self._sizes[kind], self.NICENESS[kind])
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    async def move(self, fn: Callable[..., T], *args: Any) -> T:
        return await self._run("moves", fn, *args)

    async def analysis(self, fn: Callable[..., T], *args: Any) -> T:
        return await self._run("analyses", fn, *args)

    def close(self) -> None:
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)


async def read_positions(thinkers: Thinkers, record: Record, iterations: int, seed: int
                         ) -> AsyncGenerator[list[dict[str, Any]], None]:
    """Read the positions of a finished game where a move was chosen, as many at once as
    the analysis has workers, and yield the readings so far, in the game's order, each
    time more are in. A position's reading depends on the position, the budget and the
    seed alone: the last list is the same on any number of workers, and the same as
    :func:`app.bots.worker.analyse` in one process.

    The next positions are asked for only once the consumer has taken the readings so far
    (stored them): a worker waits that long, and what a page sees is in order."""
    versions = iter(chosen_versions(record))
    running: set[asyncio.Future[dict[str, Any] | None]] = set()
    readings: dict[int, dict[str, Any]] = {}

    def ask_for_more() -> None:
        for version in itertools.islice(versions, thinkers.analysis_workers - len(running)):
            running.add(asyncio.ensure_future(thinkers.analysis(
                analyse_position, record, version, iterations, seed)))

    ask_for_more()
    try:
        while running:
            done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            running -= done
            errors = [error for read in done if (error := read.exception()) is not None]
            if errors:  # each one looked at (none left for asyncio to report), the first raised
                raise errors[0]
            for read in done:
                reading = read.result()
                if reading is not None:
                    readings[reading["version"]] = reading
            yield [readings[version] for version in sorted(readings)]
            ask_for_more()
    finally:  # a failure, or the server stopping: no position more
        for read in running:
            read.cancel()


def shown_position(position: dict[str, Any]) -> dict[str, Any]:
    """A position's reading as ``GET /api/games/{id}/analysis`` answers it: with seat 0's
    chance for the chart."""
    seat, chance = position["seat"], position["chance"]
    return {"version": position["version"], "seat": seat, "chance": chance,
            "seat0": chance if seat == 0 else round(1 - chance, 3),
            "best": position["best"], "played": position.get("played"),
            "played_chance": position.get("played_chance")}


class ComputerPlayers:
    def __init__(self, service: GameService, sessions: async_sessionmaker[AsyncSession],
                 settings: Settings, thinkers: Thinkers, *, clock: Clock) -> None:
        self._service = service
        self._sessions = sessions
        self._settings = settings
        self._thinkers = thinkers
        self._clock = clock
        self._moving: set[str] = set()
        """Games this process is moving for (at most one move at a time per game)."""
        self._again: set[str] = set()
        """Games whose turn may have come back to the computer while it was moving."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._to_analyse: asyncio.Queue[str] = asyncio.Queue(ANALYSIS_QUEUE)
        self._analyst: asyncio.Task[None] | None = None
        self._secret = settings.session_secret().encode()

    # ------------------------------------------------------------------ moves
    def on_applied(self, applied: Applied) -> None:
        """A committed action (a watcher of :class:`GameService`: it must not wait)."""
        if not applied.here:
            return  # the server that committed it moves next, if anyone
        if applied.game.is_over:
            self.queue_analysis(applied.game_id)
        else:
            self.consider(applied.game_id)

    def consider(self, game_id: str) -> None:
        """Move for the computer in this game if it is to act (now, in the background)."""
        if game_id in self._moving:
            self._again.add(game_id)
            return
        self._moving.add(game_id)
        self._spawn(self._keep_moving(game_id))

    async def _keep_moving(self, game_id: str) -> None:
        try:
            while True:
                self._again.discard(game_id)
                moved = await self._move(game_id)
                if not moved and game_id not in self._again:
                    return
        except Exception:
            log.exception("the computer could not move in game %s", game_id)
        finally:
            self._moving.discard(game_id)

    async def _move(self, game_id: str) -> bool:
        """One move for the computer, if it is to act: whether it moved (or someone else
        did first: then look again)."""
        holders = await self._service.seat_holders(game_id)
        if not any(holder.computer for holder in holders):
            return False  # a game between people: nothing to read
        game, version = await self._service.current(game_id)
        seat = game.to_act
        level = next((h.computer for h in holders if h.seat == seat), None)
        if seat is None or level is None:
            return False
        record = record_of(game)  # now: the cached game moves on while the worker thinks
        args = (record, seat, level, bot_seed(game_id, self._secret))
        try:
            action = await self._thinkers.move(think, *args)
        except BrokenProcessPool:  # its worker died: once more, on the new pool
            action = await self._thinkers.move(think, *args)
        for _ in range(SUBMIT_TRIES):
            try:
                await self._service.submit(game_id, seat, action, version,
                                           f"computer:{version}")
            except ServiceError as error:
                if error.code in _GIVE_UP:
                    return False
                if error.code == "stale_version":
                    return True
                if error.code != "busy":
                    raise
                await self._clock.sleep(float(error.params.get("retry_after", 1)))
            except STORAGE_ERRORS:  # the database away a moment: the same move again
                log.warning("the computer's move in game %s waits for the database",
                            game_id)
                await self._clock.sleep(1.0)
            else:
                return True
        log.warning("the computer's move in game %s was not taken; the sweep will retry",
                    game_id)
        return False

    async def sweep(self) -> None:
        """Move in the games where the computer has been to act for a while."""
        async with self._sessions() as session:
            stalled = await repository.computer_turns(
                session, self._service.wall.now() - STALLED_AFTER, 50)
        for game_id in stalled:
            self.consider(game_id)

    async def sweep_analyses(self) -> None:
        """Queue the recent finished games nobody analysed, while this server's analysis
        worker has nothing else to do (claimed only when it starts on one)."""
        if not self._settings.analysis_enabled or not self._to_analyse.empty():
            return
        now = self._service.wall.now()
        async with self._sessions() as session:
            waiting = await repository.unanalysed(
                session, now - ANALYSIS_WINDOW, now - ANALYSIS_CLAIM, 5, MIN_ACTIONS)
        for game_id in waiting:
            self.queue_analysis(game_id)

    async def run(self) -> None:
        """Every :data:`SWEEP_SECONDS`, the stalled games; every
        :data:`ANALYSIS_SWEEP_SECONDS`, the missed analyses."""
        every = round(ANALYSIS_SWEEP_SECONDS / SWEEP_SECONDS)
        for count in itertools.count():
            for work in (self.sweep, *((self.sweep_analyses,) if count % every == 0 else ())):
                try:
                    await work()
                except Exception:  # the database may be away a moment: look again later
                    log.exception("could not look for the computer's games")
            await self._clock.sleep(SWEEP_SECONDS)

    # ------------------------------------------------------------------ analysis
    def queue_analysis(self, game_id: str) -> None:
        """Analyse a finished game when this server's analysis worker is free (in order;
        a full queue leaves the game to the sweep)."""
        if not self._settings.analysis_enabled:
            return
        with contextlib.suppress(asyncio.QueueFull):
            self._to_analyse.put_nowait(game_id)
            if self._analyst is None or self._analyst.done():
                self._analyst = asyncio.create_task(self._analyse_queued())

    async def _analyse_queued(self) -> None:
        while True:
            game_id = await self._to_analyse.get()
            try:
                await self.analyse(game_id)
            except Exception:
                log.exception("could not analyse game %s", game_id)
            finally:
                self._to_analyse.task_done()

    async def analyse(self, game_id: str) -> None:
        """Analyse a finished game now, unless another server has (or is doing it): its
        positions spread over the analysis workers, each stored once read (stopping the
        server stops it between two positions). A failure after the claim is stored as
        such; a claim taken over (this server was taken for stopped) is left to the other."""
        iterations = self._settings.analysis_iterations or LEVELS[TOP_LEVEL].iterations
        async with self._sessions() as session:  # the record, not a replay on this loop
            found = await repository.game_and_log(session, game_id)
        if found is None or found[0].status != "finished" or len(found[1]) < MIN_ACTIONS:
            return
        row, actions, _ = found
        record: Record = (row.seed, row.options, actions)
        claimed_at = self._service.wall.now()
        async with self._sessions() as session:
            claimed = await repository.claim_analysis(
                session, game_id, claimed_at, claimed_at - ANALYSIS_CLAIM, iterations,
                total=len(chosen_versions(record)))
            await session.commit()
        if not claimed:
            return
        positions: list[dict[str, Any]] | None = []
        try:
            async with contextlib.aclosing(read_positions(
                    self._thinkers, record, iterations, bot_seed(game_id, self._secret))
            ) as readings:
                async for positions in readings:
                    async with self._sessions() as session:
                        ours = await repository.note_analysis_progress(
                            session, game_id, claimed_at, positions)
                        await session.commit()
                    if not ours:
                        return
        except Exception:
            log.exception("could not analyse game %s", game_id)
            positions = None
        async with self._sessions() as session:
            await repository.finish_analysis(session, game_id, claimed_at, positions,
                                             self._service.wall.now())
            await session.commit()

    async def analysis(self, game_id: str) -> dict[str, Any]:
        """What ``GET /api/games/{id}/analysis`` answers: the status and, once done, each
        position's chance for seat 0 and the mistakes."""
        async with self._sessions() as session:  # asked every few seconds while pending
            row = await repository.get_game(session, game_id)
            if row is None:
                raise game_not_found(game_id)
            if row.status != "finished":
                raise ServiceError("not_over", "a game is analysed once it is over", 409)
            found = await repository.analysis_of(session, game_id)
        if found is not None and found.status == "failed":
            return {"status": "failed"}
        if found is None or found.status != "done" or found.positions is None:
            if row.version < MIN_ACTIONS:
                return {"status": "too_short"}
            now = self._service.wall.now()
            working = found is not None and found.claimed_at > now - ANALYSIS_CLAIM
            # Otherwise made only here, for a game the sweep will find: one that ended
            # lately (its row's last change).
            will = self._settings.analysis_enabled and row.updated_at > now - ANALYSIS_WINDOW
            if not (working or will):
                return {"status": "none"}
            if not working or found is None or found.total is None:
                return {"status": "pending"}  # not begun (queued, or its server stopped)
            read = found.positions or []
            return {"status": "pending", "read": len(read), "total": found.total,
                    "positions": [shown_position(p) for p in read]}
        positions = found.positions
        return {
            "status": "done", "iterations": found.iterations,
            "positions": [shown_position(p) for p in positions],
            "mistakes": mistakes(positions, row.winner,
                                 ended_by_play=row.victory not in FORFEITS),
        }

    # ------------------------------------------------------------------ lifetime
    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Return once nothing is being thought or analysed here (what a test waits for)."""
        while True:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
            await self._to_analyse.join()
            if not self._tasks:
                return

    async def close(self) -> None:
        tasks = [*self._tasks, *([self._analyst] if self._analyst else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._thinkers.close()
