"""Accounts, optional: a player (a display name behind a session cookie) may register a
username and a password, log in from another browser, change the password, and log out
everywhere. Passwords are hashed with argon2 through pwdlib; every password check goes
through the shared throttle (``limits.PasswordThrottle``).

A login's session keeps the player's ``session_epoch`` as it was: raising it (log out
everywhere, a new password) ends every session made before (``session_valid``)."""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache

from pwdlib import PasswordHash
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Player, Seat

from .errors import ServiceError
from .limits import Attempt, PasswordThrottle
from .players import PlayerInfo, clean_name

USERNAME = re.compile(r"[A-Za-z0-9_-]{3,24}")
PASSWORD_MIN, PASSWORD_MAX = 8, 200
EPOCH_KEPT_SECONDS = 5.0
"""How long a process trusts the epoch it read: a session ended on another process is
refused here at most this much later."""


@cache
def _hasher() -> PasswordHash:
    return PasswordHash.recommended()


@cache
def _unknown_hash() -> str:
    """Checked against for a username nobody has, so that answering takes as long."""
    return _hasher().hash("a password for no account at all")


async def _hash(password: str) -> str:
    return await asyncio.to_thread(_hasher().hash, password)


async def _verify(password: str, hashed: str) -> bool:
    return await asyncio.to_thread(_hasher().verify, password, hashed)


def _check_new_password(password: str) -> None:
    if len(password) < PASSWORD_MIN:
        raise ServiceError("weak_password", f"a password has at least {PASSWORD_MIN} "
                           "characters", 422, params={"cause": "short", "min": PASSWORD_MIN})
    if len(password) > PASSWORD_MAX:
        raise ServiceError("weak_password", f"a password has at most {PASSWORD_MAX} "
                           "characters", 422, params={"cause": "long", "max": PASSWORD_MAX})


def _login_of(username: str) -> str:
    if not USERNAME.fullmatch(username):
        raise ServiceError("bad_username", "a username has 3 to 24 letters, digits, - or _",
                           422)
    return username.lower()


def _bad_login() -> ServiceError:
    # One answer for an unknown username and a wrong password: nobody learns which names
    # have accounts from it.
    return ServiceError("bad_login", "wrong username or password", 401)


@dataclass(frozen=True)
class Client:
    """Who sends a password: their address, and the ids the password throttle knows their
    browser by, per account it logged in to (kept in its signed session)."""

    address: str
    devices: Mapping[str, str]

    def attempt(self, account: str) -> Attempt:
        return Attempt(self.address, self.devices.get(account))


def throttle_key(login: str) -> str:
    """The account as the password throttle and the browser's devices name it."""
    return f"player:{login}"


@dataclass(frozen=True)
class Login:
    """A logged-in player, and the epoch their session must carry."""

    player: PlayerInfo
    username: str
    epoch: int

    @property
    def account(self) -> str:
        return throttle_key(self.username.lower())


class AccountService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession],
                 throttle: PasswordThrottle) -> None:
        self._sessions = sessions
        self._throttle = throttle
        self._epochs: dict[str, tuple[int, float]] = {}
        """Each account's epoch as last read, and when (``time.monotonic``)."""

    async def register(self, player_id: str | None, username: str, password: str) -> Login:
        """Give the session's player (a guest: their games stay theirs), or a new player
        named after the username, this username and password."""
        login = _login_of(username)
        _check_new_password(password)
        hashed = await _hash(password)
        try:
            async with self._sessions() as session:
                row = await session.get(Player, player_id) if player_id else None
                if row is not None and row.login is not None:
                    raise ServiceError("already_registered",
                                       "this browser is logged in to an account already", 409)
                if row is None:
                    row = Player(id=secrets.token_urlsafe(16), name=clean_name(username))
                    session.add(row)
                row.username, row.login, row.password_hash = username, login, hashed
                row.registered_at = datetime.now(UTC)
                await session.commit()
        except IntegrityError:
            raise ServiceError("username_taken", "this username is taken", 409) from None
        return self._remembered(row)

    async def login(self, username: str, password: str, client: Client,
                    guest_id: str | None) -> Login:
        """The account, if the password is right (throttled: ``too_many_attempts``). The
        games of the browser's guest player (``guest_id``) become the account's."""
        login = username.lower() if USERNAME.fullmatch(username) else None
        account = throttle_key(login or "-")
        attempt = client.attempt(account)
        await self._throttle.attempt(account, attempt)
        async with self._sessions() as session:
            row = (await session.scalars(select(Player).where(Player.login == login))).first() \
                if login else None
            hashed = row.password_hash if row is not None else None
            if not await _verify(password, hashed or _unknown_hash()) or row is None:
                raise _bad_login()
            if guest_id is not None and guest_id != row.id:
                await self._claim_guest_games(session, guest_id, row.id)
            await session.commit()
        await self._throttle.succeeded(account, attempt)
        return self._remembered(row)

    async def change_password(self, player_id: str | None, current: str, new: str,
                              client: Client) -> Login:
        """A new password; every other session of the account ends."""
        _check_new_password(new)
        async with self._sessions() as session:
            row = await session.get(Player, player_id) if player_id else None
            if row is None or row.login is None or row.password_hash is None:
                raise ServiceError("not_registered", "log in to an account first", 401)
            account = throttle_key(row.login)
            attempt = client.attempt(account)
            await self._throttle.attempt(account, attempt)
            if not await _verify(current, row.password_hash):
                raise _bad_login()
            row.password_hash = await _hash(new)
            row.session_epoch += 1
            await session.commit()
        await self._throttle.succeeded(account, attempt)
        return self._remembered(row)

    async def log_out_everywhere(self, player_id: str | None) -> None:
        """End every session of the account, this one included."""
        async with self._sessions() as session:
            row = await session.get(Player, player_id) if player_id else None
            if row is None or row.login is None:
                raise ServiceError("not_registered", "log in to an account first", 401)
            row.session_epoch += 1
            await session.commit()
        self._epochs[row.id] = (row.session_epoch, time.monotonic())

    async def session_valid(self, player_id: str, epoch: int) -> bool:
        """Whether a login session made at ``epoch`` still stands (read again at most
        every few seconds)."""
        known = self._epochs.get(player_id)
        if known is None or time.monotonic() - known[1] > EPOCH_KEPT_SECONDS:
            async with self._sessions() as session:
                current = await session.scalar(
                    select(Player.session_epoch).where(Player.id == player_id))
            if current is None:
                return False
            known = self._epochs[player_id] = (current, time.monotonic())
        return known[0] == epoch

    async def _claim_guest_games(self, session: AsyncSession, guest_id: str,
                                 account_id: str) -> None:
        """The guest's seats become the account's, but for a game where the account
        holds the other seat (nobody plays both sides); only a guest's, never another
        account's."""
        guest = await session.get(Player, guest_id)
        if guest is None or guest.login is not None:
            return
        both = select(Seat.game_id).where(Seat.player_id == account_id)
        await session.execute(update(Seat).where(
            Seat.player_id == guest_id, Seat.game_id.not_in(both)).values(player_id=account_id))

    def _remembered(self, row: Player) -> Login:
        self._epochs[row.id] = (row.session_epoch, time.monotonic())
        assert row.username is not None
        return Login(PlayerInfo(row.id, row.name, row.username), row.username,
                     row.session_epoch)

