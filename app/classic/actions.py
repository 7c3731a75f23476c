"""Actions of the classic game: every choice a seat makes, as small immutable values.

Declared as Duel's are (``app/engine/actions.py``): each type by its class, with its JSON
``TYPE``, its notation ``PREFIX``, its ``FIELDS`` in order and the decisions it ``ANSWERS``.
A purchase names the coins paid to each neighbour; left out (None), the engine takes the
cheapest split when it applies the action and logs the action with the split it took::

    >>> parse("build:stockade:2:0")
    Build(card='stockade', left=2, right=0)
    >>> str(Discard("tavern")), Discard("tavern").to_json()
    ('discard:tavern', {'type': 'discard', 'card': 'tavern'})
    >>> from_json({"type": "stage", "card": "altar", "left": 0, "right": 1})
    BuildStage(card='altar', left=0, right=1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final

from .cards import CARD_IDS
from .errors import MalformedActionError

PICK: Final = "pick"
"""Every seat at once: play a card of its hand."""
SEVENTH: Final = "seventh"
"""Babylon B, one seat: play the last card of the age."""
DISCARD_BUILD: Final = "discard_build"
"""Halikarnassos, one seat: build a card of the discard pile for free."""
DECISIONS: Final = (PICK, SEVENTH, DISCARD_BUILD)


class Action:
    """Base of every action: equality, hashing, notation and JSON from the declared fields."""

    __slots__ = ()
    TYPE: ClassVar[str]
    PREFIX: ClassVar[str]
    FIELDS: ClassVar[tuple[str, ...]]
    ANSWERS: ClassVar[tuple[str, ...]]
    card: str

    def values(self) -> tuple[str | int | None, ...]:
        return tuple([getattr(self, name) for name in self.FIELDS])

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for name, value in zip(self.FIELDS, self.values(), strict=True):
            if value is not None:
                out[name] = value
        return out

    def __str__(self) -> str:
        values = self.values()
        while values and values[-1] is None:
            values = values[:-1]
        return ":".join([self.PREFIX, *["-" if v is None else str(v) for v in values]])

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}"
                           for name, value in zip(self.FIELDS, self.values(), strict=True))
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Action) \
            and other.values() == self.values()

    def __hash__(self) -> int:
        return hash((self.TYPE, self.values()))


class _Purchase(Action):
    """An action that may buy resources: ``left`` and ``right`` coins to each neighbour."""

    __slots__ = ("card", "left", "right")
    FIELDS = ("card", "left", "right")
    ANSWERS = (PICK, SEVENTH)

    def __init__(self, card: str, left: int | None = None, right: int | None = None) -> None:
        self.card = card
        self.left: Final = left
        self.right: Final = right

    def with_split(self, left: int, right: int) -> _Purchase:
        return type(self)(self.card, left, right)


class Build(_Purchase):
    """Build the structure of a card of the hand, paying its cost."""

    __slots__ = ()
    TYPE = "build"
    PREFIX = "build"


class BuildStage(_Purchase):
    """Tuck a card of the hand under the board to build the next wonder stage."""

    __slots__ = ()
    TYPE = "stage"
    PREFIX = "wonder"


class Discard(Action):
    """Discard a card of the hand for 3 coins."""

    __slots__ = ("card",)
    TYPE = "discard"
    PREFIX = "discard"
    FIELDS = ("card",)
    ANSWERS = (PICK, SEVENTH)

    def __init__(self, card: str) -> None:
        self.card = card


class BuildFree(Action):
    """Olympia A, stage 2: build a card of the hand for nothing, once an age."""

    __slots__ = ("card",)
    TYPE = "build_free"
    PREFIX = "olympia"
    FIELDS = ("card",)
    ANSWERS = (PICK, SEVENTH)

    def __init__(self, card: str) -> None:
        self.card = card


class BuildDiscarded(Action):
    """Halikarnassos: build a card of the discard pile for nothing."""

    __slots__ = ("card",)
    TYPE = "build_discarded"
    PREFIX = "halikarnassos"
    FIELDS = ("card",)
    ANSWERS = (DISCARD_BUILD,)

    def __init__(self, card: str) -> None:
        self.card = card


ACTION_TYPES: Final[tuple[type[Action], ...]] = (Build, BuildStage, Discard, BuildFree,
                                                 BuildDiscarded)
_BY_TYPE: Final = {cls.TYPE: cls for cls in ACTION_TYPES}
_BY_PREFIX: Final = {cls.PREFIX: cls for cls in ACTION_TYPES}


def _card(value: Any) -> str:
    if not isinstance(value, str) or value not in CARD_IDS:
        raise MalformedActionError(f"unknown card {value!r}")
    return value


def _coins(value: Any) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 0 <= value < 100:
        raise MalformedActionError(f"coins must be a whole number 0..99, not {value!r}")
    return value


def _coins_text(value: str | None) -> int | None:
    if value is None or value == "-":
        return None
    return _coins(int(value) if value.isdigit() else value)


_FROM_JSON: Final[dict[str, Callable[[Any], Any]]] = {
    "card": _card, "left": _coins, "right": _coins}
_FROM_TEXT: Final[dict[str, Callable[[Any], Any]]] = {
    "card": _card, "left": _coins_text, "right": _coins_text}
_OPTIONAL: Final = frozenset(("left", "right"))


def _make(cls: type[Action], values: dict[str, Any],
          readers: dict[str, Callable[[Any], Any]]) -> Action:
    make: Callable[..., Action] = cls
    return make(*[readers[name](values.get(name)) for name in cls.FIELDS])


def parse(notation: object) -> Action:
    """Read an action from its notation, e.g. ``build:tavern``, ``wonder:altar:0:2``."""
    if not isinstance(notation, str):
        raise MalformedActionError("notation must be a string")
    prefix, *args = notation.strip().split(":")
    cls = _BY_PREFIX.get(prefix)
    if cls is None:
        raise MalformedActionError(f"unknown action {prefix!r} in {notation!r}")
    required = len([name for name in cls.FIELDS if name not in _OPTIONAL])
    if not required <= len(args) <= len(cls.FIELDS):
        raise MalformedActionError(f"{cls.TYPE} takes {required}..{len(cls.FIELDS)} "
                                   f"argument(s), got {len(args)}")
    return _make(cls, dict(zip(cls.FIELDS, args, strict=False)), _FROM_TEXT)


def from_json(data: Any) -> Action:
    """Read an action from its JSON form, e.g. ``{"type": "discard", "card": "tavern"}``."""
    if not isinstance(data, dict):
        raise MalformedActionError("an action must be a JSON object")
    kind = data.get("type")
    cls = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedActionError(f"unknown action type {kind!r}")
    extra = set(data) - set(cls.FIELDS) - {"type"}
    if extra:
        raise MalformedActionError(f"unexpected field(s) {sorted(map(str, extra))} for {kind}")
    missing = [name for name in cls.FIELDS if name not in data and name not in _OPTIONAL]
    if missing:
        raise MalformedActionError(f"missing field(s) {missing} for {kind}")
    return _make(cls, data, _FROM_JSON)


def read(action: object) -> Action:
    """An action from itself, its notation or its JSON form."""
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        return parse(action)
    if isinstance(action, dict):
        return from_json(action)
    raise MalformedActionError(f"{action!r} is not an action")
