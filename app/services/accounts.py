"""Accounts, optional: a player (a display name behind a session cookie) may register a
username and a password, log in from another browser, change the password, and log out
everywhere. Passwords are hashed with argon2 through pwdlib; every password check goes
through the shared throttle (``limits.PasswordThrottle``).

A login's session keeps the player's ``session_epoch`` as it was: raising it (log out
everywhere, a new password) ends every session made before (``session_valid``). Each
session also has an id of its own: logging out records it (``end_session``), so that a
copy of that browser's cookie holds the player no more, while the player's other
browsers stay logged in."""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from pwdlib import PasswordHash
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from zxcvbn import zxcvbn

from app.db.models import EndedSession, Player, Seat, SeatResult

from .errors import ServiceError
from .limits import Attempt, PasswordThrottle, Rate, RateLimits, address_key
from .players import PlayerInfo, clean_name

USERNAME = re.compile(r"[A-Za-z0-9_-]{3,24}")
PASSWORD_MIN, PASSWORD_MAX = 8, 200
EPOCH_KEPT_SECONDS = 5.0
"""How long a process trusts the epoch it read: a session ended on another process is
refused here at most this much later."""


@cache
def _hasher() -> PasswordHash:
    return PasswordHash.recommended()


HASHES_AT_ONCE = 2
"""Hashes a process computes at once: each takes ~0.1 s of a core and 64 MiB; a flood of
logins waits its turn instead of starving every other request."""


GUESSABLE_BELOW = 2
"""zxcvbn's score (0 to 4) a new password needs at least: 0 and 1 are found within a
million guesses (a common password, a repeat, a keyboard run, the username with a digit);
from 2 on, a guesser needs more, over a year at the throttle's 100 an hour per account."""
SCORED_CHARS = 72
"""zxcvbn scores this many characters at most (its time grows with the length); a
password longer than that is judged by its first ones."""


def _guessable(password: str, username: str) -> bool:
    return zxcvbn(password[:SCORED_CHARS], user_inputs=[username])["score"] < GUESSABLE_BELOW


def _check_new_password(password: str, username: str) -> None:
    if len(password) < PASSWORD_MIN:
        raise ServiceError("weak_password", f"a password has at least {PASSWORD_MIN} "
                           "characters", 422, params={"cause": "short", "min": PASSWORD_MIN})
    if len(password) > PASSWORD_MAX:
        raise ServiceError("weak_password", f"a password has at most {PASSWORD_MAX} "
                           "characters", 422, params={"cause": "long", "max": PASSWORD_MAX})
    if _guessable(password, username):
        raise ServiceError("weak_password", "this password is too easy to guess (a common "
                           "one, a repeat or a pattern)", 422, params={"cause": "common"})


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


@dataclass(frozen=True)
class _Known:
    """An account's state as a process last read it: whether the player has an account,
    its epoch, and the ids of the player's sessions logged out of."""

    registered: bool
    epoch: int
    ended: frozenset[str]
    read_at: float


class AccountService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession],
                 throttle: PasswordThrottle, limits: RateLimits, *,
                 registrations_per_hour: int, session_days: float) -> None:
        self._sessions = sessions
        self._session_age = timedelta(days=session_days)
        """The longest a session cookie is taken (its signature's age): an ended session
        older than that needs no record."""
        self._throttle = throttle
        self._limits = limits
        self._registrations = Rate(registrations_per_hour, 3600)
        self._known: dict[str, _Known] = {}
        """Each player's account state as last read (``time.monotonic``)."""
        self._hashing = asyncio.Semaphore(HASHES_AT_ONCE)
        self._unknown: str | None = None

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(_hasher().hash, password)

    async def _verify(self, password: str, hashed: str | None) -> bool:
        """Whether ``password`` is the one hashed; with no hash (a username nobody has),
        checked against one all the same, so that answering takes as long."""
        against = hashed
        if against is None:
            self._unknown = against = self._unknown or await self._hash("no one's password")
        async with self._hashing:
            right = await asyncio.to_thread(_hasher().verify, password, against)
        return right and hashed is not None

    async def register(self, player_id: str | None, username: str, password: str,
                       client: Client, language: str | None = None) -> Login:
        """Give the session's player (a guest: their games stay theirs), or a new player
        named after the username, this username and password; ``language``, one this
        browser picked, becomes the account's."""
        login = _login_of(username)
        _check_new_password(password, username)
        await self._limits.take("register", [f"address|{address_key(client.address)}"],
                                self._registrations, code="too_many_accounts",
                                what="accounts registered")
        hashed = await self._hash(password)
        try:
            async with self._sessions() as session:
                row = await session.get(Player, player_id) if player_id else None
                if row is None:
                    row = Player(id=secrets.token_urlsafe(16), name=clean_name(username))
                    session.add(row)
                    await session.flush()
                # Only a guest becomes an account, once (of two registrations at once, one).
                taken = await session.execute(
                    update(Player).where(Player.id == row.id, Player.login.is_(None))
                    .values(username=username, login=login, password_hash=hashed,
                            registered_at=datetime.now(UTC),
                            language=language or Player.language))
                if not taken.rowcount:  # type: ignore[attr-defined]
                    raise ServiceError("already_registered",
                                       "this browser is logged in to an account already", 409)
                await session.commit()
        except IntegrityError:
            raise ServiceError("username_taken", "this username is taken", 409) from None
        return self._remembered(row.id, row.name, username, 0, language or row.language)

    async def login(self, username: str, password: str, client: Client,
                    guest_id: str | None, language: str | None = None) -> Login:
        """The account, if the password is right (throttled: ``too_many_attempts``). The
        games of the browser's guest player (``guest_id``) become the account's; an
        account without a language takes ``language``, one this browser picked."""
        login = username.lower() if USERNAME.fullmatch(username) else None
        account = throttle_key(login or "-")
        attempt = client.attempt(account)
        await self._throttle.attempt(account, attempt)
        async with self._sessions() as session:  # read, then let the connection go
            row = (await session.scalars(select(Player).where(Player.login == login))).first() \
                if login else None
        hashed = row.password_hash if row is not None else None
        if not await self._verify(password, hashed) or row is None:
            raise _bad_login()
        async with self._sessions() as session:
            # The password checked must still be the account's (a new one may have been
            # set meanwhile): read again, with the epoch this session will carry.
            now = (await session.execute(select(Player.password_hash, Player.session_epoch)
                                         .where(Player.id == row.id))).first()
            if now is None or now[0] != hashed:
                raise _bad_login()
            if guest_id is not None and guest_id != row.id:
                await claim_guest_games(session, guest_id, row.id)
            known = row.language
            if known is None and language is not None:
                await session.execute(update(Player).where(Player.id == row.id,
                                                           Player.language.is_(None))
                                      .values(language=language))
                known = language
            await session.commit()
        await self._throttle.succeeded(account, attempt)
        assert row.username is not None
        return self._remembered(row.id, row.name, row.username, now[1], known)

    async def change_password(self, player_id: str | None, current: str, new: str,
                              client: Client) -> Login:
        """A new password; every other session of the account ends."""
        async with self._sessions() as session:
            row = await session.get(Player, player_id) if player_id else None
        if row is None or row.login is None or row.password_hash is None:
            raise ServiceError("not_registered", "log in to an account first", 401)
        _check_new_password(new, row.username or row.login)
        account = throttle_key(row.login)
        attempt = client.attempt(account)
        await self._throttle.attempt(account, attempt)
        if not await self._verify(current, row.password_hash):
            raise _bad_login()
        hashed = await self._hash(new)
        epoch = await self._next_epoch(row.id, password_hash=hashed, was=row.password_hash)
        if epoch is None:  # the password changed meanwhile: the one checked is not it
            raise _bad_login()
        await self._throttle.succeeded(account, attempt)
        assert row.username is not None
        return self._remembered(row.id, row.name, row.username, epoch, row.language)

    async def log_out_everywhere(self, player_id: str | None) -> None:
        """End every session of the account, this one included."""
        epoch = await self._next_epoch(player_id) if player_id else None
        if epoch is None:
            raise ServiceError("not_registered", "log in to an account first", 401)

    async def _next_epoch(self, player_id: str, *, password_hash: str | None = None,
                          was: str | None = None) -> int | None:
        """Raise the account's epoch in one statement (two at once both count), setting
        ``password_hash`` if given while the hash is still ``was``: the new epoch, or None
        when no such account (or the hash changed)."""
        values: dict[str, Any] = {"session_epoch": Player.session_epoch + 1}
        statement = update(Player).where(Player.id == player_id, Player.login.is_not(None))
        if password_hash is not None:
            values["password_hash"] = password_hash
            statement = statement.where(Player.password_hash == was)
        async with self._sessions() as session:
            epoch = await session.scalar(statement.values(values)
                                         .returning(Player.session_epoch))
            await session.commit()
        if epoch is not None:
            self._learn(player_id, registered=True, epoch=epoch)
        return epoch

    async def end_session(self, player_id: str, session_id: str) -> None:
        """The session ``session_id`` of ``player_id`` is logged out of: no copy of its
        cookie holds the player any more (here at once, on other processes within
        ``EPOCH_KEPT_SECONDS``). Records older than a cookie may live go meanwhile."""
        now = datetime.now(UTC)
        async with self._sessions() as session:
            await session.execute(delete(EndedSession)
                                  .where(EndedSession.ended_at < now - self._session_age))
            if await session.get(EndedSession, session_id) is None:
                session.add(EndedSession(session_id=session_id, player_id=player_id,
                                         ended_at=now))
            try:
                await session.commit()
            except IntegrityError:  # another copy of the cookie logged out at once: done
                await session.rollback()
        known = self._known.get(player_id)
        if known is not None:
            self._known[player_id] = replace(known, ended=known.ended | {session_id})

    async def session_valid(self, player_id: str, epoch: int | None,
                            session_id: str | None = None) -> bool:
        """Whether a session naming ``player_id`` still stands: not logged out of (its
        ``session_id``), and a guest's without an epoch, an account's made at its current
        epoch (read again at most every few seconds). A guest's session of a player who
        has since registered no longer does: it never logged in."""
        known = self._known.get(player_id)
        if known is None or time.monotonic() - known.read_at > EPOCH_KEPT_SECONDS:
            async with self._sessions() as session:
                current = (await session.execute(
                    select(Player.login, Player.session_epoch)
                    .where(Player.id == player_id))).first()
                ended = frozenset((await session.scalars(
                    select(EndedSession.session_id)
                    .where(EndedSession.player_id == player_id))).all()) \
                    if current is not None else frozenset()
            if current is None:
                return False
            known = self._learn(player_id, registered=current[0] is not None,
                                epoch=current[1], ended=ended)
        if session_id is not None and session_id in known.ended:
            return False
        return epoch == known.epoch if known.registered else epoch is None

    def _learn(self, player_id: str, *, registered: bool, epoch: int,
               ended: frozenset[str] = frozenset()) -> _Known:
        """Remember what was read; never an epoch older than one known, nor fewer ended
        sessions (a read that started before a change may end after it)."""
        known = self._known.get(player_id)
        if known is not None:
            ended |= known.ended
            if known.registered and known.epoch > epoch:
                epoch = known.epoch
        fresh = self._known[player_id] = _Known(registered, epoch, ended, time.monotonic())
        return fresh

    def _remembered(self, player_id: str, name: str, username: str, epoch: int,
                    language: str | None) -> Login:
        self._learn(player_id, registered=True, epoch=epoch)
        return Login(PlayerInfo(player_id, name, username, language), username, epoch)


async def claim_guest_games(session: AsyncSession, guest_id: str, account_id: str) -> None:
    """The guest's seats become the account's, but for a game where the account
    holds the other seat (nobody plays both sides); only a guest's, never another
    account's."""
    guest = await session.get(Player, guest_id)
    if guest is None or guest.login is not None:
        return
    both = select(Seat.game_id).where(Seat.player_id == account_id)
    await session.execute(update(Seat).where(
        Seat.player_id == guest_id, Seat.game_id.not_in(both)).values(player_id=account_id))
    # Their finished games' summaries follow their seats, so that the account's profile
    # counts them. (A game ending meanwhile reads its seats FOR SHARE: its summaries
    # are written before the seats move, or name the account.)
    moved = select(Seat.game_id).where(Seat.game_id == SeatResult.game_id,
                                       Seat.seat == SeatResult.seat,
                                       Seat.player_id == account_id)
    await session.execute(update(SeatResult).where(
        SeatResult.player_id == guest_id, moved.exists()).values(player_id=account_id))
