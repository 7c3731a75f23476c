"""Actions: every move a player can make, as small immutable values.

Each action has a compact notation (``str(action)``, read back by :func:`parse`) and a JSON
form (:meth:`Action.to_json`, read back by :func:`from_json`)::

    >>> parse("wonder:the_pyramids:tavern")
    BuildWonder(wonder='the_pyramids', card='tavern')
    >>> str(BuildCard("lumber_yard"))
    'build:lumber_yard'
    >>> from_json({"type": "choose_starter", "seat": 1})
    ChooseStarter(seat=1)

Malformed input raises :class:`~app.engine.errors.MalformedActionError`; whether a well-formed
action is legal is for the game to say.

Each action type is declared once, by its class: its JSON ``TYPE``, its notation ``PREFIX``,
its ``FIELDS`` (in notation and JSON order) and the kinds of decision it ``ANSWERS``. A
field's name says what it holds and how it is checked: ``card``, ``wonder``, ``token`` (ids),
``seat`` (0 or 1) or ``reason`` (a forfeit's). A forfeit or a take-back
(:data:`OUT_OF_TURN`) is made by the seat it names, whoever is to act. The registry
(:data:`ACTION_TYPES`) is the subclasses of :class:`Action`, and the game finds each
type's handler by its ``TYPE``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final

from .cards import CARD_BY_ID, TOKEN_BY_ID, WONDER_BY_ID
from .errors import MalformedActionError
from .state import FORFEITS, DecisionKind

# Each id's index in CARDS, WONDERS or TOKENS, kept on the actions for the engine's fast
# path (not part of an action's value: equality, hashing and the forms use the ids).
_CARD_INDEX: Final = {card.id: card.index for card in CARD_BY_ID.values()}
_WONDER_INDEX: Final = {wonder.id: wonder.index for wonder in WONDER_BY_ID.values()}
_TOKEN_INDEX: Final = {token.id: token.index for token in TOKEN_BY_ID.values()}


class Action:
    """Base of every action: equality, hashing, notation and JSON from the declared fields.

    Subclasses are plain classes with ``__slots__`` and ``Final`` fields, not dataclasses:
    mypyc takes a dataclass's class variables for fields (mypyc/mypyc#740)."""

    __slots__ = ()
    TYPE: ClassVar[str]
    """The ``type`` of the JSON form."""
    PREFIX: ClassVar[str]
    """The first word of the notation."""
    FIELDS: ClassVar[tuple[str, ...]]
    """The fields, in notation and JSON order."""
    ANSWERS: ClassVar[tuple[DecisionKind, ...]]
    """The decisions this action answers."""

    def values(self) -> tuple[str | int, ...]:
        """The field values, in ``FIELDS`` order."""
        return tuple([getattr(self, name) for name in self.FIELDS])

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for name, value in zip(self.FIELDS, self.values(), strict=True):
            out[name] = value
        return out

    def __str__(self) -> str:
        return ":".join([self.PREFIX, *[str(value) for value in self.values()]])

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}"
                           for name, value in zip(self.FIELDS, self.values(), strict=True))
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Action) \
            and other.values() == self.values()

    def __hash__(self) -> int:
        return hash((self.TYPE, self.values()))


class PickWonder(Action):
    """Draft: take one of the wonders on offer."""

    __slots__ = ("wonder", "wonder_index")
    TYPE = "pick_wonder"
    PREFIX = "pick"
    FIELDS = ("wonder",)
    ANSWERS = (DecisionKind.PICK_WONDER,)

    def __init__(self, wonder: str) -> None:
        self.wonder: Final = wonder
        self.wonder_index: Final = _WONDER_INDEX.get(wonder, -1)


class BuildCard(Action):
    """Take an accessible card and build it in your city."""

    __slots__ = ("card", "card_index")
    TYPE = "build"
    PREFIX = "build"
    FIELDS = ("card",)
    ANSWERS = (DecisionKind.PLAY_CARD,)

    def __init__(self, card: str) -> None:
        self.card: Final = card
        self.card_index: Final = _CARD_INDEX.get(card, -1)


class DiscardCard(Action):
    """Take an accessible card and discard it for coins."""

    __slots__ = ("card", "card_index")
    TYPE = "discard"
    PREFIX = "discard"
    FIELDS = ("card",)
    ANSWERS = (DecisionKind.PLAY_CARD,)

    def __init__(self, card: str) -> None:
        self.card: Final = card
        self.card_index: Final = _CARD_INDEX.get(card, -1)


class BuildWonder(Action):
    """Take an accessible card and tuck it under one of your wonders to build that wonder."""

    __slots__ = ("card", "card_index", "wonder", "wonder_index")
    TYPE = "build_wonder"
    PREFIX = "wonder"
    FIELDS = ("wonder", "card")
    ANSWERS = (DecisionKind.PLAY_CARD,)

    def __init__(self, wonder: str, card: str) -> None:
        self.wonder: Final = wonder
        self.card: Final = card
        self.wonder_index: Final = _WONDER_INDEX.get(wonder, -1)
        self.card_index: Final = _CARD_INDEX.get(card, -1)


class ChooseProgressToken(Action):
    """Take a progress token: from the board after a science pair, or from the Great
    Library's draw."""

    __slots__ = ("token", "token_index")
    TYPE = "choose_progress"
    PREFIX = "progress"
    FIELDS = ("token",)
    ANSWERS = (DecisionKind.CHOOSE_PROGRESS, DecisionKind.CHOOSE_LIBRARY_TOKEN)

    def __init__(self, token: str) -> None:
        self.token: Final = token
        self.token_index: Final = _TOKEN_INDEX.get(token, -1)


class DestroyCard(Action):
    """Statue of Zeus / Circus Maximus: put one of the opponent's cards in the discard pile."""

    __slots__ = ("card", "card_index")
    TYPE = "destroy"
    PREFIX = "destroy"
    FIELDS = ("card",)
    ANSWERS = (DecisionKind.DESTROY_CARD,)

    def __init__(self, card: str) -> None:
        self.card: Final = card
        self.card_index: Final = _CARD_INDEX.get(card, -1)


class BuildFromDiscard(Action):
    """The Mausoleum: build a card of the discard pile for free."""

    __slots__ = ("card", "card_index")
    TYPE = "build_from_discard"
    PREFIX = "mausoleum"
    FIELDS = ("card",)
    ANSWERS = (DecisionKind.BUILD_FROM_DISCARD,)

    def __init__(self, card: str) -> None:
        self.card: Final = card
        self.card_index: Final = _CARD_INDEX.get(card, -1)


class ChooseStarter(Action):
    """Choose which seat (0 or 1) starts the next age."""

    __slots__ = ("seat",)
    TYPE = "choose_starter"
    PREFIX = "starter"
    FIELDS = ("seat",)
    ANSWERS = (DecisionKind.CHOOSE_STARTER,)

    def __init__(self, seat: int) -> None:
        self.seat: Final = seat


class Forfeit(Action):
    """``seat`` loses at once, for ``reason``: ``resigned``, ``time`` (its clock ran out) or
    ``abandoned`` (it left, and its opponent claimed the win)."""

    __slots__ = ("reason", "seat")
    TYPE = "forfeit"
    PREFIX = "forfeit"
    FIELDS = ("seat", "reason")
    ANSWERS = ()

    def __init__(self, seat: int, reason: str) -> None:
        self.seat: Final = seat
        self.reason: Final = reason


class TakeBack(Action):
    """``seat``'s last action is undone, as agreed by both players: possible only if it was
    the last action of the game and revealed nothing that was hidden."""

    __slots__ = ("seat",)
    TYPE = "take_back"
    PREFIX = "takeback"
    FIELDS = ("seat",)
    ANSWERS = ()

    def __init__(self, seat: int) -> None:
        self.seat: Final = seat


OUT_OF_TURN: Final = (Forfeit, TakeBack)
"""Actions made by the seat they name, whoever is to act and whatever is being decided;
never among the legal actions, which are the rules' moves."""
ACTION_TYPES: Final[tuple[type[Action], ...]] = tuple(Action.__subclasses__())
"""Every action type, in the order they are declared above."""
_BY_TYPE: Final = {cls.TYPE: cls for cls in ACTION_TYPES}
_BY_PREFIX: Final = {cls.PREFIX: cls for cls in ACTION_TYPES}


def _card(value: Any) -> str:
    if not isinstance(value, str) or value not in CARD_BY_ID:
        raise MalformedActionError(f"unknown card {value!r}")
    return value


def _wonder(value: Any) -> str:
    if not isinstance(value, str) or value not in WONDER_BY_ID:
        raise MalformedActionError(f"unknown wonder {value!r}")
    return value


def _token(value: Any) -> str:
    if not isinstance(value, str) or value not in TOKEN_BY_ID:
        raise MalformedActionError(f"unknown progress token {value!r}")
    return value


def _seat(value: Any) -> int:
    if type(value) is not int or value not in (0, 1):
        raise MalformedActionError(f"seat must be 0 or 1, not {value!r}")
    return value


def _reason(value: Any) -> str:
    if not isinstance(value, str) or value not in _FORFEIT_REASONS:
        raise MalformedActionError(f"a forfeit's reason is one of {list(_FORFEIT_REASONS)}, "
                                   f"not {value!r}")
    return value


_FORFEIT_REASONS: Final = frozenset(victory.value for victory in FORFEITS)


def _seat_from_text(value: str) -> int:
    return _seat(int(value) if value in ("0", "1") else value)


_FROM_JSON: Final[dict[str, Callable[[Any], str | int]]] = {
    "card": _card, "wonder": _wonder, "token": _token, "seat": _seat, "reason": _reason,
}
"""How each field is read from JSON, by the field's name."""
_FROM_TEXT: Final[dict[str, Callable[[Any], str | int]]] = {**_FROM_JSON, "seat": _seat_from_text}
"""How each field is read from a notation: the seat is the only number."""


def _make(cls: type[Action], values: list[Any],
          readers: dict[str, Callable[[Any], str | int]]) -> Action:
    if len(values) != len(cls.FIELDS):
        raise MalformedActionError(
            f"{cls.TYPE} takes {len(cls.FIELDS)} argument(s), got {len(values)}")
    make: Callable[..., Action] = cls
    return make(*[readers[name](value)
                  for name, value in zip(cls.FIELDS, values, strict=True)])


def parse(notation: object) -> Action:
    """Read an action from its notation, e.g. ``build:tavern`` or ``starter:1``."""
    if not isinstance(notation, str):
        raise MalformedActionError("notation must be a string")
    prefix, *args = notation.strip().split(":")
    cls = _BY_PREFIX.get(prefix)
    if cls is None:
        raise MalformedActionError(f"unknown action {prefix!r} in {notation!r}")
    return _make(cls, args, _FROM_TEXT)


def from_json(data: Any) -> Action:
    """Read an action from its JSON form, e.g. ``{"type": "build", "card": "tavern"}``."""
    if not isinstance(data, dict):
        raise MalformedActionError("an action must be a JSON object")
    kind = data.get("type")
    cls = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedActionError(f"unknown action type {kind!r}")
    names = cls.FIELDS
    extra = set(data) - set(names) - {"type"}
    if extra:
        raise MalformedActionError(f"unexpected field(s) {sorted(map(str, extra))} for {kind}")
    missing = [name for name in names if name not in data]
    if missing:
        raise MalformedActionError(f"missing field(s) {missing} for {kind}")
    return _make(cls, [data[name] for name in names], _FROM_JSON)
