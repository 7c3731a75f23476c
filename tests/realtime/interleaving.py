"""Ordering the server's steps from a test without waiting for real time, so that no
test depends on how fast the machine is: a clock for the server's timers (heartbeats, the
join deadline, the lobby's debounce) that only the test moves, and gates that hold a
server coroutine at one point until the test lets it go.

The test runs in its own thread while ``TestClient`` runs the application's event loop in
another: the methods meant for the test are called from its thread, and wake the loop
with ``call_soon_threadsafe`` (or the client's portal).
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field

from fastapi import FastAPI
from fastapi.testclient import TestClient

SETTLE_TIMEOUT = 30.0
"""Seconds to wait for the application's loop before failing (a failure detector only:
the tests never wait for it to pass)."""


@dataclass(eq=False)
class _Sleeper:
    deadline: float
    seconds: float
    loop: asyncio.AbstractEventLoop
    woken: asyncio.Future[None] = field(repr=False)


class ManualClock:
    """Time stands still until :meth:`advance`; a sleep ends once the clock has been
    advanced past its deadline."""

    def __init__(self) -> None:
        self._now = 0.0
        self._sleepers: list[_Sleeper] = []
        self._changed = threading.Condition()

    def now(self) -> float:
        with self._changed:
            return self._now

    async def sleep(self, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        with self._changed:
            sleeper = _Sleeper(self._now + seconds, seconds, loop, loop.create_future())
            self._sleepers.append(sleeper)
            self._changed.notify_all()
        try:
            await sleeper.woken
        finally:  # cancelled: no longer sleeping
            with self._changed:
                if sleeper in self._sleepers:
                    self._sleepers.remove(sleeper)

    def wait_for_sleepers(self, count: int = 1, *, seconds: float | None = None) -> None:
        """Block until at least ``count`` timers sleep (for ``seconds``, if given): a timer
        that starts sleeping after an advance would not count that advance."""
        with self._changed:
            ready = self._changed.wait_for(
                lambda: sum(1 for s in self._sleepers
                            if seconds is None or s.seconds == seconds) >= count,
                SETTLE_TIMEOUT)
        assert ready, f"fewer than {count} timers (of {seconds}s) ever slept"

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``, deadline by deadline: each timer due is woken
        at its own deadline, and has run up to its next pause (a sleep, a read, its end)
        before the clock moves further or this returns."""
        with self._changed:
            target = self._now + seconds
        while True:
            with self._changed:
                due = [s for s in self._sleepers if s.deadline <= target]
                if not due:
                    self._now = target
                    return
                self._now = min(s.deadline for s in due)
                woken = [s for s in self._sleepers if s.deadline <= self._now]
                for sleeper in woken:
                    self._sleepers.remove(sleeper)
            self._wake(woken)

    @staticmethod
    def _wake(sleepers: list[_Sleeper]) -> None:
        loops = {s.loop for s in sleepers}
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        assert running not in loops, "advance the clock from the test's thread, not the loop"
        for loop in loops:
            settled = threading.Event()

            def wake(futures: list[asyncio.Future[None]], loop: asyncio.AbstractEventLoop = loop,
                     settled: threading.Event = settled) -> None:
                for future in futures:
                    if not future.done():
                        future.set_result(None)  # schedules the sleeping task's next step
                loop.call_soon(settled.set)  # queued after those steps: set once they ran

            loop.call_soon_threadsafe(wake, [s.woken for s in sleepers if s.loop is loop])
            assert settled.wait(SETTLE_TIMEOUT), "the application's loop did not run the timers"


def manual_clock(app: FastAPI) -> ManualClock:
    """Give ``app`` (not started yet) a clock the test moves by hand."""
    clock = ManualClock()
    app.state.clock = clock
    return clock


class Gate:
    """Holds one server coroutine at ``await gate.hold()`` until the test opens the gate:
    the first to arrive after ``passing`` others went through. All others pass."""

    def __init__(self, client: TestClient, *, passing: int = 0) -> None:
        self._client = client
        self._passing = passing
        self._arrivals = 0  # counted on the loop's thread only
        self._opened = asyncio.Event()
        self.reached = threading.Event()

    async def hold(self) -> None:
        self._arrivals += 1
        if self._arrivals == self._passing + 1:
            self.reached.set()
            await self._opened.wait()

    def wait_reached(self) -> None:
        """Block the test until the held coroutine is at the gate."""
        assert self.reached.wait(SETTLE_TIMEOUT), "the server never got to the gate"

    def open(self) -> None:
        assert self._client.portal is not None
        self._client.portal.call(self._opened.set)
