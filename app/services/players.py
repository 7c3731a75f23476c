"""Players: a display name behind a signed session cookie, no password.

The session (Starlette's ``SessionMiddleware``, signed with the secret key) holds only the
player's id; a forged or tampered cookie reads as no session at all.
"""

from __future__ import annotations

import secrets
import sys
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any, Final

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Player

from .errors import ServiceError

SESSION_KEY = "player"
NAME_MAX = 40
SEEN_EVERY = timedelta(hours=1)
"""``last_seen_at`` is written at most this often per player."""


@dataclass(frozen=True)
class PlayerInfo:
    player_id: str
    name: str
    username: str | None = None
    """An account's username (None: a guest). Not in ``to_json``: the lobby shows names."""
    language: str | None = None
    """An account's language, if it picked one (app/i18n.py)."""

    def to_json(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name}

    def me_json(self) -> dict[str, Any]:
        """The player as ``GET /api/me`` answers them to themselves."""
        return {**self.to_json(), "username": self.username}


_JOINERS: Final = frozenset("\u200c\u200d")
"""Invisible, yet part of a name: the zero-width joiner holds an emoji sequence together
(👩‍💻), and both shape letters in several scripts. Other format characters stay refused: a
direction override would turn a name around in others' eyes."""
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co"})
"""Controls, format characters, lone surrogates and private use. Unassigned code points
(Cn) pass: they are the characters of a newer Unicode than this Python's (a new emoji)."""


def _refused_in_name(ch: str) -> bool:
    """Whether ``ch`` may not stand in a name (a space of any kind is trimmed or made one
    plain space first, so it may)."""
    return unicodedata.category(ch) in _REFUSED_CATEGORIES and not ch.isspace() \
        and ch not in _JOINERS


def clean_name(raw: str) -> str:
    """A display name as shown to others: at most 40 characters as sent, none of them
    refused (:func:`_refused_in_name`), at least one of them visible; trimmed, and inner
    runs of spaces made one. Otherwise a ``bad_name`` refusal. :func:`name_pattern` says
    the same to the OpenAPI schema."""
    name = " ".join(raw.split())
    if not name:
        raise ServiceError("bad_name", "a name needs at least one visible character", 422,
                           params={"cause": "blank"})
    if len(raw) > NAME_MAX:
        raise ServiceError("bad_name", f"a name has at most {NAME_MAX} characters", 422,
                           params={"cause": "too_long", "max": NAME_MAX})
    if any(_refused_in_name(ch) for ch in name):
        raise ServiceError("bad_name", "a name cannot hold control characters", 422,
                           params={"cause": "control"})
    return name


def _character_class(chars: list[int]) -> str:
    """The code points ``chars`` (ascending) as the inside of a regular expression's
    character class: ranges, written ``\\uXXXX`` in the basic plane (surrogates among
    them) and as themselves beyond it (JSON Schema's patterns have no escape for those)."""
    def one(cp: int) -> str:
        return f"\\u{cp:04x}" if cp <= 0xFFFF else chr(cp)

    ranges: list[list[int]] = []
    for cp in chars:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    return "".join(one(a) if a == b else f"{one(a)}-{one(b)}" for a, b in ranges)


@cache
def name_pattern() -> str:
    """:func:`clean_name`'s characters as a regular expression (for the OpenAPI schema,
    with ``maxLength`` 40): none refused, at least one not a space. Made from the same
    rule, so the two cannot drift apart."""
    category = unicodedata.category
    refused, spaces = [], []
    for cp in range(sys.maxunicode + 1):  # as _refused_in_name, inlined: 1.1 M of them
        ch = chr(cp)
        if ch.isspace():
            spaces.append(cp)
        elif category(ch) in _REFUSED_CATEGORIES and ch not in _JOINERS:
            refused.append(cp)
    not_refused = f"[^{_character_class(refused)}]"
    visible = f"[^{_character_class(sorted(refused + spaces))}]"
    return f"^{not_refused}*{visible}{not_refused}*$"


def session_player_id(session: dict[str, Any]) -> str | None:
    """The player id a (verified) session names, if any."""
    value = session.get(SESSION_KEY)
    return value if isinstance(value, str) else None


class PlayerService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def get(self, player_id: str | None) -> PlayerInfo | None:
        """The player, if ``player_id`` names one (an id from an old database does not)."""
        if player_id is None:
            return None
        async with self._sessions() as session:
            row = await session.get(Player, player_id)
            if row is None:
                return None
            now = datetime.now(UTC)
            if now - row.last_seen_at > SEEN_EVERY:
                row.last_seen_at = now
                await session.commit()
            return PlayerInfo(row.id, row.name, row.username, row.language)

    async def remember_language(self, player_id: str | None, code: str) -> None:
        """An account keeps the language picked in any of its browsers (a guest has only
        the browser's cookie)."""
        if player_id is None:
            return
        async with self._sessions() as session:
            row = await session.get(Player, player_id)
            if row is not None and row.username is not None and row.language != code:
                row.language = code
                await session.commit()

    async def name(self, player_id: str | None, raw_name: str) -> PlayerInfo:
        """Rename the player, or create one when ``player_id`` names nobody."""
        name = clean_name(raw_name)
        async with self._sessions() as session:
            row = await session.get(Player, player_id) if player_id else None
            if row is None:
                row = Player(id=secrets.token_urlsafe(16), name=name)
                session.add(row)
            else:
                row.name = name
                row.last_seen_at = datetime.now(UTC)
            await session.commit()
            return PlayerInfo(row.id, row.name, row.username, row.language)
