"""Fair starts, as on lichess: nothing is at stake until both seats have made a decision of
their own.

- Until then either player may abort the game: no result, no rating change.
- Each seat's first decision has a deadline of its own (``first_move_seconds`` in a game
  played live, the period in a correspondence game); missing it aborts the game, it does
  not lose it. Games against the computer have none (the computer never misses one).
- Clocks start per seat: a seat's clock does not run during its own first decision (it
  pays nothing for it and gains no increment there), and runs from its next decision on.
  Per seat rather than once both have decided: in a draft the second seat's two picks
  come in a row, and its second is on its own clock.

A decision taken back (both agreed) is undone here too: the seat decides again, on the
first decision's terms.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from .clocks import TimeControl


@dataclass(frozen=True)
class FirstDecisions:
    """Which seats have made a decision of their own in the game as it stands: worked out
    from the seat of each action, in the log's order (take-backs undo)."""

    in_force: int = 0
    """The rules' actions in force (the log less take-backs and what they undid)."""
    opener: int | None = None
    """The seat of the first action in force."""
    reply_at: int | None = None
    """Where, among the actions in force, the other seat's first one is."""

    def after(self, seat: int, action: dict[str, Any]) -> FirstDecisions:
        """As they are once ``seat``'s ``action`` (its JSON) is applied."""
        kind = action.get("type")
        if kind == "forfeit":  # the game is over: nobody decides any more
            return self
        if kind == "take_back":  # the last action in force is undone
            count = self.in_force - 1
            reply = self.reply_at if self.reply_at is not None and self.reply_at < count \
                else None
            return FirstDecisions(count, self.opener if count else None, reply)
        if self.in_force == 0:
            return FirstDecisions(1, seat)
        reply = self.reply_at
        if reply is None and seat != self.opener:
            reply = self.in_force
        return FirstDecisions(self.in_force + 1, self.opener, reply)

    def made(self, seat: int) -> bool:
        """Whether ``seat`` has made a decision of its own."""
        return seat == self.opener or self.reply_at is not None

    @property
    def both_made(self) -> bool:
        """Both seats have decided: the game can no longer be aborted."""
        return self.reply_at is not None


def first_decision_time(control: TimeControl | None, live_seconds: float) -> timedelta:
    """How long a seat has for its first decision: a correspondence game's period, or
    ``live_seconds`` in a game played live."""
    if control is not None and not control.real_time:
        return timedelta(milliseconds=control.base_ms)
    return timedelta(seconds=live_seconds)
