"""Time controls and the players' clocks: pure arithmetic over instants the caller gives.

A game's clocks are the time each seat had left when the current decision began
(``since``), and the seat whose clock runs (the seat to act, whoever must decide: a
progress token, a card to destroy, who starts the next age; but no clock runs during a
seat's first decision, which has a deadline of its own: app/services/starts.py). Every
action in the log keeps both seats' time as it left them, so the clocks replay with the
log.

- **Fischer** (real-time): a bank per seat, and an increment each time a seat's clock
  stops after its own action (the decision passes to the other seat, or the game ends).
- **Correspondence**: every decision gets the same allowance (days), afresh.

Actions made out of turn (a resignation, an agreed take-back) charge the running clock
the time it ran and give no increment.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, Protocol

Kind = Literal["fischer", "correspondence"]

FISCHER_PRESETS = ((5, 3), (10, 5), (20, 10))
"""(minutes, seconds of increment) the create form offers first."""
FISCHER_MINUTES = (1, 180)
"""A custom real-time bank's bounds, in minutes."""
FISCHER_INCREMENT = (0, 60)
"""A custom increment's bounds, in seconds."""
CORRESPONDENCE_DAYS = (1, 2, 3, 7)

_MS = timedelta(milliseconds=1)
_US = timedelta(microseconds=1)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_DAY_MS = 86_400_000


def epoch_us(at: datetime) -> int:
    """An instant as another process is told it: microseconds since 1970 (UTC)."""
    return (at - _EPOCH) // _US


def from_epoch_us(value: int) -> datetime:
    return _EPOCH + value * _US


class TimeControlError(ValueError):
    """A time control outside what is offered."""


@dataclass(frozen=True)
class TimeControl:
    kind: Kind
    base_ms: int
    """Fischer: each seat's bank at the start. Correspondence: the time for each decision."""
    increment_ms: int = 0

    @classmethod
    def fischer(cls, minutes: int, increment: int) -> TimeControl:
        low, high = FISCHER_MINUTES
        if not low <= minutes <= high:
            raise TimeControlError(f"a real-time bank is {low} to {high} minutes")
        low, high = FISCHER_INCREMENT
        if not low <= increment <= high:
            raise TimeControlError(f"an increment is {low} to {high} seconds")
        return cls("fischer", minutes * 60_000, increment * 1000)

    @classmethod
    def correspondence(cls, days: int) -> TimeControl:
        if days not in CORRESPONDENCE_DAYS:
            raise TimeControlError(f"a correspondence game allows {CORRESPONDENCE_DAYS} days "
                                   "per move")
        return cls("correspondence", days * _DAY_MS)

    @property
    def real_time(self) -> bool:
        """Played in one sitting (an absent player's opponent may claim the win)."""
        return self.kind == "fischer"

    def to_json(self) -> dict[str, Any]:
        if self.kind == "fischer":
            return {"kind": "fischer", "minutes": self.base_ms // 60_000,
                    "increment": self.increment_ms // 1000}
        return {"kind": "correspondence", "days": self.base_ms // _DAY_MS}

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> TimeControl | None:
        """The control stored with a game (None: untimed), as it was offered then: the
        bounds of today's offers are not checked again."""
        if data is None:
            return None
        if data.get("kind") == "fischer":
            return cls("fischer", int(data["minutes"]) * 60_000, int(data["increment"]) * 1000)
        if data.get("kind") == "correspondence":
            return cls("correspondence", int(data["days"]) * _DAY_MS)
        raise TimeControlError(f"unknown time control {data!r}")

    def start(self, now: datetime) -> Clocks:
        """Both clocks full as the game starts; none runs (the first seat's first decision
        is not paid for)."""
        return Clocks((self.base_ms, self.base_ms), now, None)

    def after(self, clocks: Clocks, now: datetime, *, seat: int, in_turn: bool,
              to_act: int | None, first_decision: bool = False) -> Clocks:
        """The clocks once ``seat``'s action is made at ``now`` (``in_turn``: a move of the
        seat to act, not a resignation or take-back), ``to_act`` deciding next (None: the
        game is over; ``first_decision``: its first, during which its clock does not
        run)."""
        left = list(clocks.left(now))
        running = clocks.running
        if self.kind == "fischer":
            if in_turn and running == seat and to_act != seat:
                left[seat] += self.increment_ms
        elif to_act is not None:
            left[to_act] = self.base_ms
        return Clocks((left[0], left[1]), now, None if first_decision else to_act)


def stored(control: TimeControl | None) -> dict[str, Any] | None:
    """A game's time control as its row keeps it (None: untimed)."""
    return None if control is None else control.to_json()


@dataclass(frozen=True)
class Clocks:
    """Each seat's time left at ``since`` (milliseconds), and whose clock runs from then."""

    remaining: tuple[int, int]
    since: datetime
    running: int | None

    def left(self, now: datetime) -> tuple[int, int]:
        """Each seat's time left at ``now``: the running one's falls, down to zero."""
        if self.running is None:
            return self.remaining
        spent = max(0, (now - self.since) // _MS)
        left = list(self.remaining)
        left[self.running] = max(0, left[self.running] - spent)
        return left[0], left[1]

    @property
    def flag_at(self) -> datetime | None:
        """When the running seat's time runs out (None when no clock runs)."""
        if self.running is None:
            return None
        return self.since + self.remaining[self.running] * _MS

    def fallen(self, now: datetime) -> bool:
        """The running seat's time has run out."""
        flag_at = self.flag_at
        return flag_at is not None and now >= flag_at

    def to_json(self, now: datetime) -> dict[str, Any]:
        """As the pages are sent it: time left as of ``now``, and the running seat."""
        return {"remaining": list(self.left(now)), "running": self.running}

    def to_bell(self) -> dict[str, Any]:
        """As another process is told it with the move (the running seat it knows)."""
        return {"remaining": list(self.remaining), "at": epoch_us(self.since),
                "running": self.running}

    @classmethod
    def from_bell(cls, data: Any, to_act: int | None) -> Clocks | None:
        """The clocks :meth:`to_bell` told (None if the message holds none); a bell of the
        release before says no running seat: the seat to act's ran."""
        try:
            first, second = data["remaining"]
            running = data.get("running", to_act)
            return cls((int(first), int(second)), from_epoch_us(int(data["at"])),
                       None if running is None else int(running))
        except (TypeError, KeyError, ValueError):
            return None


class Clocked(Protocol):
    """A game's row, or a read of its head: its clocks as the current decision began."""

    @property
    def to_act(self) -> int | None: ...

    @property
    def clock0_ms(self) -> int | None: ...

    @property
    def clock1_ms(self) -> int | None: ...

    @property
    def clock_since(self) -> datetime | None: ...

    @property
    def clock_running(self) -> int | None: ...


def clocks_of(row: Clocked) -> Clocks | None:
    """The clocks a game's row holds (None: untimed, or not started)."""
    if row.clock0_ms is None or row.clock1_ms is None or row.clock_since is None:
        return None
    return Clocks((row.clock0_ms, row.clock1_ms), row.clock_since, row.clock_running)


class WallClock:
    """Now, by the database's clock as this process estimates it: every process judges a
    flag by the same clock. ``offset`` (the database's clock minus this process's) is
    measured at each heartbeat on PostgreSQL; SQLite serves one process, whose own clock
    is the only one."""

    def __init__(self, read: Callable[[], datetime] | None = None) -> None:
        self._read = read or (lambda: datetime.now(UTC))
        self.offset = timedelta(0)

    def now(self) -> datetime:
        return self._read() + self.offset

    def local(self) -> datetime:
        """This process's own reading, for measuring the offset."""
        return self._read()
