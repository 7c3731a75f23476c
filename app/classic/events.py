"""Events: what a step made happen, named in the past tense, each with its audience.

Every event concerns everyone; an event's ``PRIVATE`` fields are seen only by the seat it is
about (``seat``), and the others get the rest (:meth:`Event.seen_by`)::

    >>> chosen = Chosen(seat=2, step=5, action="discard:tavern")
    >>> chosen.seen_by(2)
    {'type': 'chosen', 'seat': 2, 'step': 5, 'action': 'discard:tavern'}
    >>> chosen.seen_by(0), chosen.seen_by(None)
    ({'type': 'chosen', 'seat': 2, 'step': 5}, {'type': 'chosen', 'seat': 2, 'step': 5})
"""

from __future__ import annotations

from typing import Any, ClassVar


class Event:
    """Base of every event: ``FIELDS`` in JSON order, ``PRIVATE`` those only ``seat`` sees."""

    __slots__ = ("values",)
    TYPE: ClassVar[str]
    FIELDS: ClassVar[tuple[str, ...]]
    PRIVATE: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **values: Any) -> None:
        if set(values) != set(self.FIELDS):
            raise TypeError(f"{self.TYPE} takes {self.FIELDS}")
        self.values = values

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__getattribute__("values")[name]
        except KeyError:
            raise AttributeError(name) from None

    def to_json(self) -> dict[str, Any]:
        """The whole event, private fields included."""
        return {"type": self.TYPE, **{name: self.values[name] for name in self.FIELDS}}

    def seen_by(self, audience: int | None) -> dict[str, Any]:
        """The event as ``audience`` (a seat, or None: a spectator) may see it."""
        if not self.PRIVATE or audience == self.values.get("seat"):
            return self.to_json()
        return {"type": self.TYPE, **{name: self.values[name] for name in self.FIELDS
                                      if name not in self.PRIVATE}}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and other.to_json() == self.to_json()

    def __hash__(self) -> int:
        return hash(repr(self))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={self.values[name]!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({fields})"


class AgeStarted(Event):
    TYPE = "age_started"
    FIELDS = ("age",)


class HandReceived(Event):
    """A seat's new hand (dealt or passed): the cards to it, the count to the others."""

    TYPE = "hand"
    FIELDS = ("seat", "count", "cards")
    PRIVATE = ("cards",)


class StepOpened(Event):
    """A step waits for ``seats``: ``decision`` is pick, seventh or discard_build."""

    TYPE = "step"
    FIELDS = ("step", "decision", "age", "turn", "seats")


class Chosen(Event):
    """A seat chose (or changed its choice); only it sees the choice."""

    TYPE = "chosen"
    FIELDS = ("seat", "step", "action")
    PRIVATE = ("action",)


class Played(Event):
    """A choice revealed: ``use`` build, free, stage or discard; the coins paid to the bank
    and to each neighbour. A card used for a stage or discarded stays its owner's secret."""

    TYPE = "played"
    FIELDS = ("seat", "use", "bank", "left", "right", "card")


class Hidden(Played):
    """A card tucked under a wonder or discarded (``card`` private)."""

    TYPE = "played"
    PRIVATE = ("card",)


class Unplayed(Event):
    """The last card of an age goes to the discard pile, face down, for no coins."""

    TYPE = "unplayed"
    FIELDS = ("seat", "card")
    PRIVATE = ("card",)


class CoinsGained(Event):
    TYPE = "coins"
    FIELDS = ("seat", "coins", "source")


class DiscardPileShown(Event):
    """Halikarnassos looks through the discard pile (only it sees the cards)."""

    TYPE = "discard_pile"
    FIELDS = ("seat", "count", "cards")
    PRIVATE = ("cards",)


class BuiltDiscarded(Event):
    TYPE = "built_discarded"
    FIELDS = ("seat", "card")


class NothingToBuild(Event):
    """Halikarnassos' pile held nothing it may build (empty, or names it owns)."""

    TYPE = "nothing_to_build"
    FIELDS = ("seat",)


class HandsPassed(Event):
    TYPE = "hands_passed"
    FIELDS = ("direction",)


class ConflictsResolved(Event):
    """``tokens`` by seat: the conflict tokens won this age (against left, then right)."""

    TYPE = "conflicts"
    FIELDS = ("age", "shields", "tokens")


class GameEnded(Event):
    TYPE = "game_ended"
    FIELDS = ("outcome",)


def events_for(events: list[Event], audience: int | None) -> list[dict[str, Any]]:
    """The events as ``audience`` may see them."""
    return [event.seen_by(audience) for event in events]
