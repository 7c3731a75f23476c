"""Game use cases: create, join, read, and submit an action.

The database is the truth: a game is rebuilt by replaying its log, and the replay is kept
in memory only as a cache that catches up with the log before every use. Actions of one
game are applied one at a time (a lock per game in this process; the (game, seq) primary
key between processes), and an action row is committed before anyone is told of it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db import repository
from app.db.models import Game as GameRow
from app.db.models import GameAction, Seat
from app.engine import (
    ENGINE_VERSION,
    Action,
    Game,
    IllegalActionError,
    MalformedActionError,
    Options,
    from_json,
    parse,
)
from app.realtime.protocol import render_updates
from app.realtime.pubsub import PubSub

Missed = list[list[dict[str, Any]]]
"""The events of each action a client missed, oldest first."""

SEED_BITS = 63
"""Seeds fit a signed 64-bit column."""


class ServiceError(Exception):
    """A refusal with a stable ``code`` for clients and an HTTP status for the API."""

    def __init__(self, code: str, message: str, status: int = 400,
                 detail: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.detail = detail
        """The engine's own reason for an illegal action (e.g. ``cannot_afford``)."""


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _fresh_game(row: GameRow) -> Game:
    """The game as set up from its seed and options, before any action."""
    return Game.new(row.seed, Options.from_json(row.options))


def _is_resend(earlier: GameAction, seat: int, requested: Action) -> bool:
    """Whether a logged action is this same action from this same seat (a resend)."""
    return earlier.seat == seat and earlier.action == requested.to_json()


@dataclass
class Credentials:
    game_id: str
    seat: int
    token: str


@dataclass
class Created:
    credentials: Credentials
    invite_code: str


@dataclass
class Accepted:
    version: int
    duplicate: bool = False
    """The same client id was already applied: nothing was applied again."""


@dataclass
class _Entry:
    """A game replayed up to ``version`` (the number of actions applied)."""

    game: Game
    version: int = 0


class GameService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], pubsub: PubSub,
                 settings: Settings) -> None:
        self._sessions = sessions
        self._pubsub = pubsub
        self._settings = settings
        self._cache: OrderedDict[str, _Entry] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())
        """One lock per game with anything in progress; gone when nothing holds it."""

    # ------------------------------------------------------------------ create / join
    async def create_game(self, *, wonder_selection: str, creator_starts: bool,
                          name: str | None) -> Created:
        """A new game, the creator in seat 0, waiting for a second player."""
        options = Options(wonder_selection=wonder_selection,  # type: ignore[arg-type]
                          first_player=0 if creator_starts else None)
        game_id = secrets.token_urlsafe(12)
        token = secrets.token_urlsafe(32)
        invite_code = secrets.token_urlsafe(12)
        async with self._sessions() as session:
            session.add(GameRow(id=game_id, seed=secrets.randbits(SEED_BITS),
                                options=options.to_json(), engine_version=ENGINE_VERSION,
                                invite_hash=_hash(invite_code), status="waiting"))
            await session.flush()
            session.add(Seat(game_id=game_id, seat=0, token_hash=_hash(token), name=name))
            await session.commit()
        return Created(Credentials(game_id, 0, token), invite_code)

    async def join_game(self, game_id: str, invite_code: str, name: str | None) -> Credentials:
        """Take the free seat with the invite code; the game starts."""
        token = secrets.token_urlsafe(32)
        async with self._sessions() as session:
            row = await self._row(session, game_id)
            if not hmac.compare_digest(row.invite_hash, _hash(invite_code)):
                raise ServiceError("bad_invite", "this invite code is not valid for the game",
                                   403)
            if row.status != "waiting":
                raise ServiceError("game_full", "both seats are taken", 409)
            session.add(Seat(game_id=game_id, seat=1, token_hash=_hash(token), name=name))
            row.status = "active"
            try:
                await session.commit()
            except IntegrityError:
                raise ServiceError("game_full", "both seats are taken", 409) from None
        return Credentials(game_id, 1, token)

    async def authenticate(self, game_id: str, seat: int, token: str) -> int:
        """``seat``, if ``token`` is its secret; otherwise a ``bad_credentials`` refusal."""
        if await self.seat_for_token(game_id, token) != seat:
            raise ServiceError("bad_credentials", "these credentials do not hold a seat", 401)
        return seat

    async def seat_for_token(self, game_id: str, token: str) -> int:
        """The seat whose secret ``token`` is; otherwise a ``bad_credentials`` refusal."""
        async with self._sessions() as session:
            await self._row(session, game_id)
            for row in await repository.get_seats(session, game_id):
                if hmac.compare_digest(row.token_hash, _hash(token)):
                    return row.seat
        raise ServiceError("bad_credentials", "these credentials do not hold a seat", 401)

    # ------------------------------------------------------------------ reading
    async def summary(self, game_id: str) -> dict[str, Any]:
        async with self._sessions() as session:
            row = await self._row(session, game_id)
            seats = await repository.get_seats(session, game_id)
            return {
                "game_id": row.id, "status": row.status, "options": row.options,
                "engine_version": row.engine_version, "version": row.version,
                "winner": row.winner, "victory": row.victory,
                "created_at": row.created_at.isoformat(),
                "seats": [{"seat": s, "taken": any(x.seat == s for x in seats),
                           "name": next((x.name for x in seats if x.seat == s), None)}
                          for s in (0, 1)],
            }

    async def status(self, game_id: str) -> str:
        async with self._sessions() as session:
            return (await self._row(session, game_id)).status

    async def current(self, game_id: str) -> tuple[Game, int]:
        """The game replayed up to the last committed action, and that version."""
        async with self._lock(game_id):
            async with self._sessions() as session:
                entry = await self._synced(session, game_id)
            return entry.game, entry.version

    async def catch_up(self, game_id: str, seen: int) -> tuple[Game, int, Missed]:
        """For a client that last saw version ``seen``: the game now, its version, and the
        events of every action it missed (from a fresh replay of the log)."""
        async with self._sessions() as session:
            row = await self._row(session, game_id)
            actions = await repository.actions_after(session, game_id, 0)
        game = _fresh_game(row)
        missed: Missed = []
        for action in actions:
            events = game.apply(action.action)
            if action.seq > seen:
                missed.append(events)
        return game, len(actions), missed

    # ------------------------------------------------------------------ acting
    async def submit(self, game_id: str, seat: int, action: Any, version: int,
                     client_id: str | None) -> Accepted:
        """Apply ``action`` for ``seat`` if it is legal at ``version``: commit it, then
        publish it. Any refusal changes nothing."""
        try:
            requested = parse(action) if isinstance(action, str) else from_json(action)
        except MalformedActionError as error:
            raise ServiceError("malformed", str(error)) from None
        async with self._lock(game_id):
            async with self._sessions() as session:
                row = await self._row(session, game_id)
                earlier = await self._earlier_copy(session, game_id, client_id)
                if earlier is not None:
                    if _is_resend(earlier, seat, requested):
                        return Accepted(earlier.seq, duplicate=True)
                    raise ServiceError("client_id_reused",
                                       "this client id was used for another action", 409)
                if row.status == "waiting":
                    raise ServiceError("not_started", "the game waits for a second player", 409)
                entry = await self._synced(session, game_id, row)
                if entry.game.is_over:
                    raise ServiceError("game_over", "the game is over", 409)
                if version != entry.version:
                    raise ServiceError(
                        "stale_version",
                        f"the game is at version {entry.version}, not {version}", 409)
                if entry.game.to_act != seat:
                    raise ServiceError("not_your_turn", f"seat {entry.game.to_act} is to act",
                                       409)
                try:
                    events = entry.game.apply(requested, seat=seat)
                except IllegalActionError as error:
                    raise ServiceError("illegal", str(error), 409, detail=error.code) from None
                applied = entry.game.log[-1]
                new_version = entry.version + 1
                outcome = entry.game.outcome()
                try:
                    repository.add_action(session, game_id, seq=new_version, seat=seat,
                                          action=applied.to_json(), notation=str(applied),
                                          client_id=client_id)
                    await repository.record_progress(
                        session, game_id, version=new_version,
                        status="finished" if outcome else "active",
                        winner=outcome.winner if outcome else None,
                        victory=outcome.victory if outcome else None)
                    await session.commit()
                except IntegrityError:
                    # Another server appended this seq first: our replay is now wrong. It
                    # may have been this very action, resent there by the same client.
                    self._cache.pop(game_id, None)
                    await session.rollback()
                    earlier = await self._earlier_copy(session, game_id, client_id)
                    if earlier is not None and _is_resend(earlier, seat, requested):
                        return Accepted(earlier.seq, duplicate=True)
                    raise ServiceError("stale_version", "another action was applied first",
                                       409) from None
                except Exception:
                    self._cache.pop(game_id, None)
                    raise
                entry.version = new_version
            # Committed: now, and only now, everyone may hear of it. Each audience's update
            # is rendered here, from the replay at exactly this version, so any server can
            # forward it as it is.
            updates = render_updates(entry.game, new_version, seat=seat,
                                     action=applied.to_json(), notation=str(applied),
                                     events=events)
            await self._pubsub.publish(game_id, {"version": new_version, "updates": updates})
            return Accepted(new_version)

    # ------------------------------------------------------------------ internals
    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _row(self, session: AsyncSession, game_id: str) -> GameRow:
        row = await repository.get_game(session, game_id)
        if row is None:
            raise ServiceError("not_found", f"no game {game_id!r}", 404)
        return row

    async def _earlier_copy(self, session: AsyncSession, game_id: str,
                            client_id: str | None) -> GameAction | None:
        """The action already logged under ``client_id``, if any."""
        if client_id is None:
            return None
        return await repository.action_by_client_id(session, game_id, client_id)

    async def _synced(self, session: AsyncSession, game_id: str,
                      row: GameRow | None = None) -> _Entry:
        """The cached replay, brought up to the committed log (another server may have
        appended to it). Call with the game's lock held; pass the game's ``row`` if it was
        already read (it is needed only to set up a game not in the cache)."""
        entry = self._cache.get(game_id)
        if entry is None:
            entry = _Entry(_fresh_game(row or await self._row(session, game_id)))
            self._cache[game_id] = entry
            while len(self._cache) > self._settings.game_cache_size:
                self._cache.popitem(last=False)
        self._cache.move_to_end(game_id)
        for action in await repository.actions_after(session, game_id, entry.version):
            entry.game.apply(action.action)
            entry.version = action.seq
        return entry
