"""A game's chat: the players' channel (between the seats; everyone watching reads it) and
the spectators' channel (among spectators only). Messages are kept with the game (the admin
pages show them) and reach every process's sockets through the game's published notices.

Free text is stored and sent as text: the page draws it as text, never as markup. A quick
phrase is a code (:data:`PHRASES`) that each page words in its own language.
"""

from __future__ import annotations

import logging
import unicodedata
from collections import deque
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clock import Clock
from app.config import Settings
from app.db.models import CHAT_CHANNELS, ChatMessage, Player, Seat
from app.db.models import Game as GameRow
from app.db.pubsub import PubSub

from .errors import ServiceError
from .notices import ChatPosted

log = logging.getLogger(__name__)

PHRASES = ("hello", "good_luck", "have_fun", "well_played", "thanks", "oops", "good_game")
"""The quick phrases, as codes."""
_BREAKING = frozenset({"Cc", "Zl", "Zp"})
"""Control characters, line and paragraph separators: each becomes a space."""
_SWEEP_AT = 10_000
"""Senders remembered before the quiet ones are forgotten (then twice those left)."""
HISTORY = 50
"""How many of the latest messages a socket is sent when it asks for the chat so far."""


@dataclass(frozen=True)
class Sender:
    """Who writes: a seat, or a spectator (``player_id`` if their browser has a player;
    ``socket`` names a spectator without one)."""

    seat: int | None
    player_id: str | None
    socket: Hashable

    @property
    def key(self) -> Hashable:
        """Whose messages are counted together for the rate limit: a seat's (all its
        tabs), a player's, or else one socket's."""
        if self.seat is not None:
            return ("seat", self.seat)
        return ("player", self.player_id) if self.player_id else ("socket", self.socket)


def entry_json(message: ChatMessage) -> dict[str, Any]:
    """A message as sockets are sent it (``chat`` in docs/protocol.md)."""
    out: dict[str, Any] = {"id": message.id, "channel": message.channel, "seat": message.seat,
                           "name": message.name, "at": message.created_at.isoformat()}
    if message.text is not None:
        out["text"] = message.text
    if message.phrase is not None:
        out["phrase"] = message.phrase
    return out


def readable_by(channel: str, seat: int | None) -> bool:
    """Whether a socket of ``seat`` (None: a spectator) is shown ``channel``."""
    return channel == "players" or seat is None


class ChatService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], pubsub: PubSub,
                 settings: Settings, clock: Clock) -> None:
        self._sessions = sessions
        self._pubsub = pubsub
        self._settings = settings
        self._clock = clock
        self._sent: dict[tuple[str, Hashable], deque[float]] = {}
        """When each sender's latest messages went, per game (this process's part)."""
        self._sweep_at = _SWEEP_AT

    async def post(self, game_id: str, sender: Sender, channel: str, *,
                   text: str | None = None, phrase: str | None = None) -> dict[str, Any]:
        """Keep a message and tell the game's sockets; refused (nothing kept) if it is
        empty, too long, an unknown phrase, on a channel the sender may not write to, or
        the sender's latest messages came too fast."""
        if (channel == "players") != (sender.seat is not None):
            raise ServiceError("chat_not_yours", "players write on the players' channel, "
                               "spectators on the spectators'", 403,
                               params={"channel": channel})
        text = self._checked_text(text, phrase)
        if phrase is not None and phrase not in PHRASES:
            raise ServiceError("malformed", f"unknown phrase {phrase!r}", 422,
                               params={"field": "phrase"})
        self._take_turn(game_id, sender.key)
        async with self._sessions() as session:
            game = await session.get(GameRow, game_id)
            if game is None:
                raise ServiceError("not_found", "no such game", 404)
            if game.status in ("aborted", "expired", "imported"):
                raise ServiceError(game.status, f"this game is {game.status}", 409)
            message = ChatMessage(game_id=game_id, channel=channel, seat=sender.seat,
                                  name=await self._name(session, game_id, sender),
                                  text=text, phrase=phrase, created_at=datetime.now(UTC))
            session.add(message)
            await session.commit()
            entry = entry_json(message)
        try:
            await self._pubsub.publish(game_id, ChatPosted(entry).to_json())
        except Exception:  # kept: the page asks for the chat so far when it opens it
            log.exception("could not announce a chat message on %s", game_id)
        return entry

    async def history(self, game_id: str, seat: int | None) -> list[dict[str, Any]]:
        """The latest messages a socket of ``seat`` may read, oldest first."""
        channels = [channel for channel in CHAT_CHANNELS if readable_by(channel, seat)]
        async with self._sessions() as session:
            found = await session.scalars(
                select(ChatMessage).where(ChatMessage.game_id == game_id,
                                          ChatMessage.channel.in_(channels))
                .order_by(ChatMessage.id.desc()).limit(HISTORY))
            return [entry_json(m) for m in reversed(found.all())]

    def _checked_text(self, text: str | None, phrase: str | None) -> str | None:
        if (text is None) == (phrase is None):
            raise ServiceError("chat_empty", "a chat message is a text or a phrase", 422)
        if text is None:
            return None
        # Control characters and line breaks would only disturb the page's lines; format
        # characters stay (a zero-width joiner holds an emoji sequence together).
        cleaned = " ".join("".join(" " if unicodedata.category(c) in _BREAKING else c
                                   for c in text).split())
        if not cleaned:
            raise ServiceError("chat_empty", "the message is empty", 422)
        limit = self._settings.chat_max_length
        if len(cleaned) > limit:
            raise ServiceError("chat_too_long", f"at most {limit} characters", 422,
                               params={"max": limit})
        return cleaned

    def _take_turn(self, game_id: str, key: Hashable) -> None:
        """At most ``chat_burst`` messages per sender within ``chat_burst_seconds``."""
        now, window = self._clock.now(), self._settings.chat_burst_seconds
        sent = self._sent.setdefault((game_id, key), deque())
        while sent and sent[0] <= now - window:
            sent.popleft()
        if len(sent) >= self._settings.chat_burst:
            wait = max(1, round(sent[0] + window - now))
            raise ServiceError("chat_too_fast", "too many messages: wait a moment", 429,
                               params={"retry_after": wait})
        sent.append(now)
        if len(self._sent) > self._sweep_at:  # forget senders quiet for a whole window
            for stale in [k for k, times in self._sent.items()
                          if not times or times[-1] <= now - window]:
                del self._sent[stale]
            self._sweep_at = max(_SWEEP_AT, 2 * len(self._sent))

    @staticmethod
    async def _name(session: AsyncSession, game_id: str, sender: Sender) -> str | None:
        if sender.seat is not None:
            seat = await session.get(Seat, (game_id, sender.seat))
            return seat.name if seat is not None else None
        if sender.player_id is not None:
            player = await session.get(Player, sender.player_id)
            return player.name if player is not None else None
        return None
