"""Seats: creating a game, joining one, quick-match and computer games, and telling who
holds a seat (its token, its player)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cached_property

from sqlalchemy.exc import IntegrityError

from app.bots import LEVELS
from app.db import repository
from app.db.models import Seat
from app.engine import Options

from .clocks import TimeControl, stored
from .errors import ServiceError
from .limits import Rate, address_key
from .live import LiveGames
from .replays import (
    Created,
    Credentials,
    _hash,
    _refuse_unless_account,
    _start,
    computer_name,
    new_game_row,
)


@dataclass(frozen=True)
class _RequestKey:
    """The idempotency key of a request that takes a seat: a create, or the join of one
    game (one key may serve both)."""

    kind: str
    key: str

    @property
    def stored(self) -> str:
        """What the seat keeps: the hash of kind and key. The seat's secrets are derived
        from the key itself (``GameService._derived``), which is stored nowhere."""
        return _hash(f"{self.kind}\0{self.key}")


TOKEN_BYTES = 32
"""A seat token's random bytes."""
INVITE_BYTES = 12



class Seating(LiveGames):
    """Taking seats; each request may be sent again with its key."""

    async def create_game(self, *, wonder_selection: str, creator_starts: bool,
                          name: str | None, player_id: str | None = None,
                          listed: bool = False, time_control: TimeControl | None = None,
                          request_key: str | None = None, address: str | None = None,
                          rated: bool = False) -> Created:
        """A new game, the creator in seat 0, waiting for a second player. With a
        ``player_id`` the seat is that player's (their session opens it, their name is the
        default); a ``listed`` game is shown in the lobby for anyone to join. The clocks
        (``time_control``; None: untimed) start when the game does.

        A request sent again with its ``request_key`` (its answer was lost) gets the same
        game, seat token and invite code, and creates nothing. A ``rated`` game is created
        and joined by accounts only; its result moves their ratings."""
        keyed = None if request_key is None else _RequestKey("create", request_key)
        if keyed is not None and (again := await self._seat_of_request(keyed, player_id)):
            return Created(again, self._derived(keyed, "invite", INVITE_BYTES))
        await self._count("create", address, player_id, self._settings.games_per_hour,
                          code="too_many_games", what="games created")
        options = Options(wonder_selection=wonder_selection,  # type: ignore[arg-type]
                          first_player=0 if creator_starts else None)
        token, invite_code = (
            (secrets.token_urlsafe(TOKEN_BYTES), secrets.token_urlsafe(INVITE_BYTES))
            if keyed is None else
            (self._derived(keyed, "token", TOKEN_BYTES),
             self._derived(keyed, "invite", INVITE_BYTES)))
        try:
            async with self._sessions() as session:
                player = await self._player(session, player_id)
                if rated:
                    _refuse_unless_account(player)
                row = new_game_row(options.to_json(), status="waiting",
                                   origin="lobby" if listed else "invite", listed=listed,
                                   seed=self._seeds(), invite_code=invite_code,
                                   time_control=stored(time_control), rated=rated)
                game_id = row.id
                session.add(row)
                await session.flush()
                session.add(Seat(game_id=game_id, seat=0, token_hash=_hash(token),
                                 name=name or (player.name if player else None),
                                 player_id=player.id if player else None,
                                 joined_at=self.wall.now(),
                                 request_hash=keyed and keyed.stored))
                await session.commit()
        except IntegrityError:
            # The same key's other request (sent twice at once) took a seat first.
            if keyed is None or not (again := await self._seat_of_request(keyed, player_id)):
                raise
            return Created(again, invite_code)
        await self._lobby_changed(public=listed, players=[player_id])
        return Created(Credentials(game_id, 0, token), invite_code)

    async def join_game(self, game_id: str, invite_code: str | None, name: str | None,
                        player_id: str | None = None, *, request_key: str | None = None,
                        address: str | None = None) -> Credentials:
        """Take the free seat; the game starts. An unlisted game needs its invite code.
        Sent again with its ``request_key``, a join that took the seat gets it again."""
        keyed = None if request_key is None else _RequestKey(f"join\0{game_id}", request_key)
        if keyed is not None and (again := await self._seat_of_request(keyed, player_id)):
            return again
        await self._count("join", address, player_id, self._settings.joins_per_hour,
                          code="too_many_joins", what="games joined")
        token = (secrets.token_urlsafe(TOKEN_BYTES) if keyed is None
                 else self._derived(keyed, "token", TOKEN_BYTES))
        async with self._sessions() as session:
            # Written first, while it waits: from here to the commit no other join, expiry
            # or abort can change the game (PostgreSQL holds the row, SQLite the database).
            waiting = await repository.touch_waiting(session, game_id, datetime.now(UTC))
            row = await self._row(session, game_id)
            await session.refresh(row)
            if invite_code is None:
                if not row.listed:
                    raise ServiceError("bad_invite", "this game is joined by its invite link",
                                       403, params={"cause": "missing"})
            elif not hmac.compare_digest(row.invite_hash, _hash(invite_code)):
                raise ServiceError("bad_invite", "this invite code is not valid for the game",
                                   403, params={"cause": "wrong"})
            status = row.status
            if waiting and self._expired(row.created_at):
                status = "expired"  # not swept yet (Expiry): expired all the same
            if status == "aborted" and row.abort_cause == "cancelled":
                status = "cancelled"
            if status in ("aborted", "cancelled", "expired", "imported"):
                raise ServiceError("not_joinable", f"this game is {status}", 409,
                                   params={"status": status})
            seats = await repository.get_seats(session, game_id)
            taken = not waiting or any(s.seat == 1 for s in seats)
            if not taken:
                player = await self._player(session, player_id)
                if row.rated:
                    _refuse_unless_account(player)
                if player is not None and any(s.player_id == player.id for s in seats):
                    raise ServiceError("own_game", "you already hold the other seat of this "
                                       "game", 409)
                session.add(Seat(game_id=game_id, seat=1, token_hash=_hash(token),
                                 name=name or (player.name if player else None),
                                 player_id=player.id if player else None,
                                 joined_at=self.wall.now(),
                                 request_hash=keyed and keyed.stored))
                _start(row, self.wall.now(), self._first_decision_time(row.time_control))
                try:
                    await session.commit()
                except IntegrityError:  # the seat was taken meanwhile
                    taken = True
        if taken:  # read on a connection of its own once this one is back in the pool
            return await self._taken(keyed, player_id)
        await self._lobby_changed(public=row.listed,
                                  players=[player_id, *(s.player_id for s in seats)])
        return Credentials(game_id, 1, token)

    async def _taken(self, keyed: _RequestKey | None, player_id: str | None) -> Credentials:
        """The second seat is taken: by this very join, sent again (or twice at once), it
        gets its seat; anyone else finds the game full."""
        if keyed is not None and (again := await self._seat_of_request(keyed, player_id)):
            return again
        raise ServiceError("game_full", "both seats are taken", 409)

    def _expired(self, created_at: datetime) -> bool:
        """Whether a game created then and still waiting has expired."""
        return self.wall.now() - created_at > timedelta(hours=self._settings.open_game_hours)

    @cached_property
    def _secret(self) -> bytes:
        """The site's secret key, read once (in development it is read from a file)."""
        return self._settings.session_secret().encode()

    def _derived(self, keyed: _RequestKey, purpose: str, size: int) -> str:
        """A secret of ``size`` bytes made from a request's key and this site's secret:
        the retry of that request gets the same one, and neither the database nor the
        secret alone makes it."""
        digest = hmac.new(self._secret, f"{purpose}\0{keyed.kind}\0{keyed.key}".encode(),
                          hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:size]).rstrip(b"=").decode()

    async def _seat_of_request(self, keyed: _RequestKey, player_id: str | None
                               ) -> Credentials | None:
        """The credentials of the seat the request with this key took, if one did. Refused
        (``key_reused``) to another player than the one it seated."""
        async with self._sessions() as session:
            seat = await repository.seat_of_request(session, keyed.stored)
        if seat is None:
            return None
        token = self._derived(keyed, "token", TOKEN_BYTES)
        if (seat.player_id is not None and seat.player_id != player_id) or \
                not hmac.compare_digest(seat.token_hash, _hash(token)):
            # Someone else's key (or one from before the secret key changed).
            raise ServiceError("key_reused", "this Idempotency-Key was used by another "
                               "request; send a new one", 409)
        return Credentials(seat.game_id, seat.seat, token)

    async def _count(self, bucket: str, address: str | None, player_id: str | None,
                     per_hour: int, *, code: str, what: str) -> None:
        """Count one more of ``bucket`` for the address and the player: refused past
        ``per_hour`` for either."""
        keys = [f"address|{address_key(address)}" if address is not None else "",
                f"player|{player_id}" if player_id is not None else ""]
        await self.limits.take(bucket, [key for key in keys if key], Rate(per_hour, 3600),
                               code=code, what=what)

    async def create_matched_game(self, first: str, second: str, *, rated: bool = False
                                  ) -> str:
        """A quick-match game between two players, already started: ``first`` (who waited
        longer) in seat 0. Their sessions open the seats; nobody gets a token. A ``rated``
        one is between two accounts."""
        if first == second:
            raise ServiceError("own_game", "a player cannot be matched with themselves", 409)
        async with self._sessions() as session:
            players = [await self._player(session, pid) for pid in (first, second)]
            if rated:
                for player in players:
                    _refuse_unless_account(player)
            row = new_game_row(Options().to_json(), status="active", origin="quick_match",
                               listed=True, seed=self._seeds(), now=self.wall.now(),
                               rated=rated, first_decision=self._first_decision_time(None))
            game_id = row.id
            session.add(row)
            await session.flush()
            for seat, player in enumerate(players):
                assert player is not None
                session.add(Seat(game_id=game_id, seat=seat,
                                 token_hash=_hash(secrets.token_urlsafe(32)),
                                 name=player.name, player_id=player.id,
                                 joined_at=self.wall.now()))
            await session.commit()
        await self._lobby_changed(public=True, players=[first, second])
        return game_id

    async def create_computer_game(self, player_id: str | None, level: str, *,
                                   wonder_selection: str = "draft",
                                   first_player: int | None = None,
                                   address: str | None = None,
                                   request_key: str | None = None) -> str:
        """A game against the computer at ``level``, already started: the player in seat 0
        (their session opens it), the computer in seat 1. ``first_player``: the seat that
        starts (None: drawn). Never rated; not listed in the lobby. Sent again with its
        ``request_key`` (its answer was lost), the request gets the same game."""
        if player_id is None:
            raise ServiceError("no_player", "pick a name first (PUT /api/me)", 401)
        if level not in LEVELS:
            raise ServiceError("unknown_level", f"no computer level {level!r}", 422,
                               params={"levels": list(LEVELS)})
        keyed = None if request_key is None else _RequestKey("computer", request_key)
        if keyed is not None and (again := await self._seat_of_request(keyed, player_id)):
            return again.game_id
        await self._count("computer", address, player_id,
                          self._settings.computer_games_per_hour, code="too_many_games",
                          what="games against the computer")
        options = Options(wonder_selection=wonder_selection,  # type: ignore[arg-type]
                          first_player=first_player)
        async with self._sessions() as session:
            player = await self._player(session, player_id)
            assert player is not None
            row = new_game_row(options.to_json(), status="active", origin="computer",
                               listed=False, seed=self._seeds(), now=self.wall.now())
            game_id = row.id
            session.add(row)
            await session.flush()
            # The player's seat: a token made from the request's key when it has one (its
            # retry is then recognised by it), a random one otherwise; nobody is given it.
            token = (secrets.token_urlsafe(TOKEN_BYTES) if keyed is None
                     else self._derived(keyed, "token", TOKEN_BYTES))
            session.add(Seat(game_id=game_id, seat=0, token_hash=_hash(token),
                             name=player.name, player_id=player.id,
                             joined_at=self.wall.now(), request_hash=keyed and keyed.stored))
            session.add(Seat(game_id=game_id, seat=1,
                             token_hash=_hash(secrets.token_urlsafe(TOKEN_BYTES)),
                             name=computer_name(level), computer=level,
                             joined_at=self.wall.now()))
            try:
                await session.commit()
            except IntegrityError:
                # The same key's other request (sent twice at once) made the game first.
                if keyed is None or not (again := await self._seat_of_request(keyed,
                                                                              player_id)):
                    raise
                return again.game_id
        await self._lobby_changed(public=False, players=[player_id])
        self._started(game_id)
        return game_id

    async def authenticate(self, game_id: str, seat: int, token: str) -> int:
        """``seat``, if ``token`` is its secret; otherwise a ``bad_credentials`` refusal."""
        if await self.seat_for_token(game_id, token) != seat:
            raise ServiceError("bad_credentials", "these credentials do not hold a seat", 401)
        return seat

    async def seat_for_token(self, game_id: str, token: str) -> int:
        """The seat whose secret ``token`` is; otherwise a ``bad_credentials`` refusal."""
        for holder in await self.seat_holders(game_id):
            if hmac.compare_digest(holder.token_hash, _hash(token)):
                return holder.seat
        raise ServiceError("bad_credentials", "these credentials do not hold a seat", 401)

    async def seat_for_player(self, game_id: str, player_id: str | None) -> int | None:
        """The seat ``player_id`` holds in the game, if any."""
        if player_id is None:
            return None
        return next((holder.seat for holder in await self.seat_holders(game_id)
                     if holder.player_id == player_id), None)
