"""Actions: every move a player can make, as small immutable values.

Each action has a compact notation (``str(action)``, read back by :func:`parse`) and a JSON
form (:meth:`to_json`, read back by :func:`from_json`)::

    >>> parse("wonder:the_pyramids:tavern")
    BuildWonder(wonder='the_pyramids', card='tavern')
    >>> str(BuildCard("lumber_yard"))
    'build:lumber_yard'
    >>> from_json({"type": "choose_starter", "seat": 1})
    ChooseStarter(seat=1)

Malformed input raises :class:`~app.engine.errors.MalformedActionError`; whether a well-formed
action is legal is for the game to say.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .cards import CARD_BY_ID, TOKEN_BY_ID, WONDER_BY_ID
from .errors import MalformedActionError


@dataclass(frozen=True, slots=True)
class PickWonder:
    """Draft: take one of the wonders on offer."""

    wonder: str

    def __str__(self) -> str:
        return f"pick:{self.wonder}"

    def to_json(self) -> dict[str, Any]:
        return {"type": TYPE_NAMES[type(self)], "wonder": self.wonder}


@dataclass(frozen=True, slots=True)
class BuildCard:
    """Take an accessible card and build it in your city."""

    card: str

    def __str__(self) -> str:
        return f"build:{self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"type": TYPE_NAMES[type(self)], "card": self.card}


@dataclass(frozen=True, slots=True)
class DiscardCard:
    """Take an accessible card and discard it for coins."""

    card: str

    def __str__(self) -> str:
        return f"discard:{self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"type": TYPE_NAMES[type(self)], "card": self.card}


@dataclass(frozen=True, slots=True)
class BuildWonder:
    """Take an accessible card and tuck it under one of your wonders to build that wonder."""

    wonder: str
    card: str

    def __str__(self) -> str:
        return f"wonder:{self.wonder}:{self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"type": TYPE_NAMES[type(self)], "wonder": self.wonder, "card": self.card}


@dataclass(frozen=True, slots=True)
class ChooseProgressToken:
    """Take a progress token: from the board after a science pair, or from the Great
    Library's draw."""

    token: str

    def __str__(self) -> str:
        return f"progress:{self.token}"

    def to_json(self) -> dict[str, Any]:
        return {"type": TYPE_NAMES[type(self)], "token": self.token}


@dataclass(frozen=True, slots=True)
class DestroyCard:
    """Statue of Zeus / Circus Maximus: put one of the opponent's cards in the discard pile."""

    card: str

    def __str__(self) -> str:
        return f"destroy:{self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"type": TYPE_NAMES[type(self)], "card": self.card}


@dataclass(frozen=True, slots=True)
class BuildFromDiscard:
    """The Mausoleum: build a card of the discard pile for free."""

    card: str

    def __str__(self) -> str:
        return f"mausoleum:{self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"type": TYPE_NAMES[type(self)], "card": self.card}


@dataclass(frozen=True, slots=True)
class ChooseStarter:
    """Choose which seat (0 or 1) starts the next age."""

    seat: int

    def __str__(self) -> str:
        return f"starter:{self.seat}"

    def to_json(self) -> dict[str, Any]:
        return {"type": TYPE_NAMES[type(self)], "seat": self.seat}


Action = (
    PickWonder | BuildCard | DiscardCard | BuildWonder | ChooseProgressToken | DestroyCard
    | BuildFromDiscard | ChooseStarter
)
ACTION_TYPES: tuple[type[Action], ...] = (
    PickWonder, BuildCard, DiscardCard, BuildWonder, ChooseProgressToken, DestroyCard,
    BuildFromDiscard, ChooseStarter,
)
TYPE_NAMES: dict[type, str] = {
    PickWonder: "pick_wonder", BuildCard: "build", DiscardCard: "discard",
    BuildWonder: "build_wonder", ChooseProgressToken: "choose_progress", DestroyCard: "destroy",
    BuildFromDiscard: "build_from_discard", ChooseStarter: "choose_starter",
}
"""The ``type`` of each action in its JSON form."""
_PREFIXES: dict[type, str] = {
    PickWonder: "pick", BuildCard: "build", DiscardCard: "discard", BuildWonder: "wonder",
    ChooseProgressToken: "progress", DestroyCard: "destroy", BuildFromDiscard: "mausoleum",
    ChooseStarter: "starter",
}
"""The first word of each action's notation."""


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


def _make(kind: str, args: list[Any]) -> Action:
    arity = {"pick_wonder": 1, "build": 1, "discard": 1, "build_wonder": 2,
             "choose_progress": 1, "destroy": 1, "build_from_discard": 1, "choose_starter": 1}
    if len(args) != arity[kind]:
        raise MalformedActionError(f"{kind} takes {arity[kind]} argument(s), got {len(args)}")
    match kind:
        case "pick_wonder":
            return PickWonder(_wonder(args[0]))
        case "build":
            return BuildCard(_card(args[0]))
        case "discard":
            return DiscardCard(_card(args[0]))
        case "build_wonder":
            return BuildWonder(_wonder(args[0]), _card(args[1]))
        case "choose_progress":
            return ChooseProgressToken(_token(args[0]))
        case "destroy":
            return DestroyCard(_card(args[0]))
        case "build_from_discard":
            return BuildFromDiscard(_card(args[0]))
        case _:
            return ChooseStarter(_seat(args[0]))


_TYPE_BY_PREFIX = {_PREFIXES[cls]: TYPE_NAMES[cls] for cls in ACTION_TYPES}
_FIELDS = {TYPE_NAMES[cls]: [field.name for field in fields(cls)] for cls in ACTION_TYPES}


def parse(notation: object) -> Action:
    """Read an action from its notation, e.g. ``build:tavern`` or ``starter:1``."""
    if not isinstance(notation, str):
        raise MalformedActionError("notation must be a string")
    prefix, *args = notation.strip().split(":")
    if prefix not in _TYPE_BY_PREFIX:
        raise MalformedActionError(f"unknown action {prefix!r} in {notation!r}")
    kind = _TYPE_BY_PREFIX[prefix]
    if kind == "choose_starter":  # the only numeric argument
        return _make(kind, [int(a) if a in ("0", "1") else a for a in args])
    return _make(kind, args)


def from_json(data: Any) -> Action:
    """Read an action from its JSON form, e.g. ``{"type": "build", "card": "tavern"}``."""
    if not isinstance(data, dict):
        raise MalformedActionError("an action must be a JSON object")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise MalformedActionError(f"unknown action type {kind!r}")
    names = _FIELDS[kind]
    extra = set(data) - set(names) - {"type"}
    if extra:
        raise MalformedActionError(f"unexpected field(s) {sorted(map(str, extra))} for {kind}")
    missing = [name for name in names if name not in data]
    if missing:
        raise MalformedActionError(f"missing field(s) {missing} for {kind}")
    return _make(kind, [data[name] for name in names])
