"""Events: what an action made happen, as small immutable values named in the past tense.

``Game.apply`` returns them in the order they happened. Each has a JSON form
(:meth:`Event.to_json`, its ``type`` first) and says who may see it: ``private_to`` is None
for an event everyone sees whole, or the only seat that may see its private fields (the
Great Library's draw). :meth:`Event.seen_by` is the JSON a seat receives::

    >>> from app.engine.events import CoinsGained, LibraryTokensDrawn
    >>> CoinsGained(seat=0, coins=3).to_json()
    {'type': 'coins_gained', 'seat': 0, 'coins': 3}
    >>> drawn = LibraryTokensDrawn(seat=1, tokens=("law", "masonry", "theology"))
    >>> drawn.private_to, drawn.seen_by(0)
    (1, {'type': 'library_drawn', 'seat': 1, 'count': 3})

Plain classes with ``__slots__`` and ``Final`` fields rather than dataclasses: compiled with
mypyc, a dataclass is created through a slow generic path (about 150 ns against 30 ns), and
every action creates a few events. ``Final`` makes the fields read-only for mypy and in the
compiled build.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Final, Literal

from .costs import Payment
from .state import Victory


class Event:
    """Base of every event. Subclasses declare their JSON ``TYPE`` and :meth:`to_json`."""

    __slots__ = ()
    TYPE: ClassVar[str]

    @property
    def private_to(self) -> int | None:
        """The seat that alone may see this event's private fields; None: a public event."""
        return None

    def to_json(self) -> dict[str, Any]:
        """The whole event, private fields included (see :meth:`seen_by`)."""
        raise NotImplementedError

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` (None: a spectator) may see it."""
        return self.to_json()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Event) \
            and other.to_json() == self.to_json()

    def __hash__(self) -> int:
        return hash(repr(self))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self.to_json().items()
                           if name != "type")
        return f"{type(self).__name__}({fields})"


# ------------------------------------------------------------------------- the draft

class WonderPicked(Event):
    """A seat took a wonder of the draft (the last of each round goes to its taker)."""

    __slots__ = ("seat", "wonder")
    TYPE = "wonder_picked"

    def __init__(self, seat: int, wonder: str) -> None:
        self.seat: Final = seat
        self.wonder: Final = wonder

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "wonder": self.wonder}


class DraftRoundStarted(Event):
    """The second round of the draft offers its four wonders."""

    __slots__ = ("round", "wonders")
    TYPE = "draft_round"

    def __init__(self, round: int, wonders: tuple[str, ...]) -> None:
        self.round: Final = round
        self.wonders: Final = wonders

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "round": self.round, "wonders": list(self.wonders)}


# ------------------------------------------------------------------------- ages and turns

class AgeStarted(Event):
    """An age was laid out; ``cards`` are its face-up cards as (slot, card)."""

    __slots__ = ("age", "cards")
    TYPE = "age_started"

    def __init__(self, age: int, cards: tuple[tuple[int, str], ...]) -> None:
        self.age: Final = age
        self.cards: Final = cards

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "age": self.age,
                "cards": [{"slot": slot, "card": card} for slot, card in self.cards]}


class CardRevealed(Event):
    """A face-down card of the structure was uncovered and turned up."""

    __slots__ = ("age", "card", "slot")
    TYPE = "card_revealed"

    def __init__(self, age: int, slot: int, card: str) -> None:
        self.age: Final = age
        self.slot: Final = slot
        self.card: Final = card

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "age": self.age, "slot": self.slot, "card": self.card}


class PlayAgainGranted(Event):
    """``seat`` plays another turn at once."""

    __slots__ = ("seat",)
    TYPE = "play_again"

    def __init__(self, seat: int) -> None:
        self.seat: Final = seat

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat}


class PlayAgainLost(Event):
    """``seat`` earned another turn with the age's last card: the age ends instead."""

    __slots__ = ("seat",)
    TYPE = "play_again_lost"

    def __init__(self, seat: int) -> None:
        self.seat: Final = seat

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat}


class StarterChosen(Event):
    """``seat`` chose who starts the next age."""

    __slots__ = ("seat", "starter")
    TYPE = "starter_chosen"

    def __init__(self, seat: int, starter: int) -> None:
        self.seat: Final = seat
        self.starter: Final = starter

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "starter": self.starter}


class GameEnded(Event):
    """The game is over: ``winner`` is a seat, or None for a shared victory."""

    __slots__ = ("victory", "winner")
    TYPE = "game_over"

    def __init__(self, winner: int | None, victory: Victory) -> None:
        self.winner: Final = winner
        self.victory: Final = victory

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "winner": self.winner, "victory": self.victory.value}


# ------------------------------------------------------------------------- cards and wonders

class CardBuilt(Event):
    """``seat`` built the card taken from ``slot``, paying ``payment``."""

    __slots__ = ("card", "payment", "seat", "slot")
    TYPE = "card_built"

    def __init__(self, seat: int, card: str, slot: int, payment: Payment) -> None:
        self.seat: Final = seat
        self.card: Final = card
        self.slot: Final = slot
        self.payment: Final = payment

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "card": self.card, "slot": self.slot,
                "payment": self.payment.to_json()}


class CardDiscarded(Event):
    """``seat`` discarded the card taken from ``slot`` for ``coins``."""

    __slots__ = ("card", "coins", "seat", "slot")
    TYPE = "card_discarded"

    def __init__(self, seat: int, card: str, slot: int, coins: int) -> None:
        self.seat: Final = seat
        self.card: Final = card
        self.slot: Final = slot
        self.coins: Final = coins

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "card": self.card, "slot": self.slot,
                "coins": self.coins}


class WonderBuilt(Event):
    """``seat`` built ``wonder``, tucking under it the card taken from ``slot``."""

    __slots__ = ("card", "payment", "seat", "slot", "wonder")
    TYPE = "wonder_built"

    def __init__(self, seat: int, wonder: str, card: str, slot: int, payment: Payment) -> None:
        self.seat: Final = seat
        self.wonder: Final = wonder
        self.card: Final = card
        self.slot: Final = slot
        self.payment: Final = payment

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "wonder": self.wonder, "card": self.card,
                "slot": self.slot, "payment": self.payment.to_json()}


class WonderRetired(Event):
    """The seventh wonder was built: ``seat``'s unbuilt ``wonder`` left the game."""

    __slots__ = ("seat", "wonder")
    TYPE = "wonder_retired"

    def __init__(self, seat: int, wonder: str) -> None:
        self.seat: Final = seat
        self.wonder: Final = wonder

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "wonder": self.wonder}


class CardDestroyed(Event):
    """Statue of Zeus / Circus Maximus: ``seat`` lost ``card`` to the discard pile."""

    __slots__ = ("card", "seat")
    TYPE = "card_destroyed"

    def __init__(self, seat: int, card: str) -> None:
        self.seat: Final = seat
        self.card: Final = card

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "card": self.card}


class CardBuiltFromDiscard(Event):
    """The Mausoleum: ``seat`` built ``card`` from the discard pile for free."""

    __slots__ = ("card", "seat")
    TYPE = "card_built_from_discard"

    def __init__(self, seat: int, card: str) -> None:
        self.seat: Final = seat
        self.card: Final = card

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "card": self.card}


# ------------------------------------------------------------------------- coins and military

class CoinsGained(Event):
    """``seat`` gained coins from a card, a wonder, a progress token or Urbanism."""

    __slots__ = ("coins", "seat")
    TYPE = "coins_gained"

    def __init__(self, seat: int, coins: int) -> None:
        self.seat: Final = seat
        self.coins: Final = coins

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "coins": self.coins}


class CoinsLost(Event):
    """``seat`` lost coins to an opponent's card or wonder."""

    __slots__ = ("coins", "seat")
    TYPE = "coins_lost"

    def __init__(self, seat: int, coins: int) -> None:
        self.seat: Final = seat
        self.coins: Final = coins

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "coins": self.coins}


class PawnMoved(Event):
    """``seat``'s ``shields`` moved the conflict pawn to ``pawn``."""

    __slots__ = ("pawn", "seat", "shields")
    TYPE = "pawn_moved"

    def __init__(self, seat: int, shields: int, pawn: int) -> None:
        self.seat: Final = seat
        self.shields: Final = shields
        self.pawn: Final = pawn

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "shields": self.shields, "pawn": self.pawn}


class Looted(Event):
    """The pawn took the ``token`` (2 or 5) loot token on ``seat``'s side: ``seat`` lost
    ``coins_lost`` coins."""

    __slots__ = ("coins_lost", "seat", "token")
    TYPE = "looted"

    def __init__(self, seat: int, token: int, coins_lost: int) -> None:
        self.seat: Final = seat
        self.token: Final = token
        self.coins_lost: Final = coins_lost

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "token": self.token,
                "coins_lost": self.coins_lost}


# ------------------------------------------------------------------------- science

class SciencePairFormed(Event):
    """``seat`` has two of ``symbol``: it takes a progress token from the board."""

    __slots__ = ("seat", "symbol")
    TYPE = "science_pair"

    def __init__(self, seat: int, symbol: str) -> None:
        self.seat: Final = seat
        self.symbol: Final = symbol

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "symbol": self.symbol}


class ProgressTokenTaken(Event):
    """``seat`` took ``token`` from the board or from the Great Library's draw."""

    __slots__ = ("seat", "source", "token")
    TYPE = "progress_taken"

    def __init__(self, seat: int, token: str,
                 source: Literal["board", "great_library"]) -> None:
        self.seat: Final = seat
        self.token: Final = token
        self.source: Final = source

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "token": self.token,
                "source": self.source}


class LibraryTokensDrawn(Event):
    """The Great Library drew ``tokens`` from the box for ``seat``: only ``seat`` may see
    which; everyone else learns how many."""

    __slots__ = ("seat", "tokens")
    TYPE = "library_drawn"

    def __init__(self, seat: int, tokens: tuple[str, ...]) -> None:
        self.seat: Final = seat
        self.tokens: Final = tokens

    @property
    def private_to(self) -> int | None:
        return self.seat

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "tokens": list(self.tokens),
                "private_to": self.seat}

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        if seat == self.seat:
            return {"type": self.TYPE, "seat": self.seat, "tokens": list(self.tokens)}
        return {"type": self.TYPE, "seat": self.seat, "count": len(self.tokens)}


# ------------------------------------------------------------------------- agreed between seats

class TakenBack(Event):
    """``seat``'s last action (``action``, its notation) was undone, as both players agreed:
    the game is as it was before it."""

    __slots__ = ("action", "seat")
    TYPE = "taken_back"

    def __init__(self, seat: int, action: str) -> None:
        self.seat: Final = seat
        self.action: Final = action

    def to_json(self) -> dict[str, Any]:
        return {"type": self.TYPE, "seat": self.seat, "action": self.action}


def events_for(events: Iterable[Event], seat: int | None) -> list[dict[str, Any]]:
    """The events of an action as ``seat`` may see them (None: a spectator), as JSON."""
    return [event.seen_by(seat) for event in events]


def events_json(events: Iterable[Event]) -> list[dict[str, Any]]:
    """The events of an action whole, private fields included: for the admin pages only."""
    return [event.to_json() for event in events]
