"""Admin use cases: the admin login, the game list, a game's full record (its log replayed
with every event, the board after any action with the hidden cards shown), export and
import of game records, aborting a game, and the log of what admins did.

Everything here sees hidden information (seeds, face-down cards): the API serves it only
behind the admin login (``app/api/admin.py``).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import secrets
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db import admin_repository, repository
from app.db.admin_repository import GameQuery
from app.db.models import (
    GAME_STATUSES,
    AdminAction,
    ChatMessage,
    EndedSession,
    GameAction,
    Seat,
)
from app.db.models import Game as GameRow
from app.engine import (
    ENGINE_VERSION,
    Game,
    IllegalActionError,
    MalformedActionError,
    Options,
    events_json,
    view,
)

from .chat import entry_json
from .errors import STORAGE_ERRORS, ServiceError
from .games import GameService, new_game_row
from .limits import Attempt, PasswordThrottle
from .lobby import game_entry
from .players import NAME_MAX
from .records import RECORD_FORMAT, RECORD_FORMAT_VERSION, check_record

log = logging.getLogger(__name__)

SESSION_KEY = "admin"
"""Where the admin login lives in the signed session (next to the player's id)."""
PER_PAGE = 25
PER_PAGE_MAX = 100
ACCOUNT = "admin"
"""The account the admin password opens, as the password throttle names it."""
CLOCK_SKEW_SECONDS = 60.0
"""A login stamped this far in the future still counts (servers' clocks differ a little)."""
REASON_MAX = 200
LOGIN_ID_BYTES = 12
"""An admin login's id: what logging out records, so that every copy of its cookie ends."""

__all__ = ["AdminService", "GameFilter", "RECORD_FORMAT", "RECORD_FORMAT_VERSION",
           "SESSION_KEY"]


def _ended_id(login_id: str) -> str:
    """How an ended admin login is kept beside the players' ended sessions."""
    return f"admin:{login_id}"[:32]


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def _refuse_filter(message: str, field: str) -> ServiceError:
    """``bad_filter``: ``field`` is the query parameter at fault."""
    return ServiceError("bad_filter", message, 422, params={"field": field})


def _page_count(total: int, per_page: int) -> int:
    return max(1, math.ceil(total / per_page))


# ---------------------------------------------------------------------------- filters
@dataclass(frozen=True)
class GameFilter:
    """The game list's filters and page, as the list page's form and the API take them."""

    status: str | None = None
    player: str | None = None
    since: date | None = None
    until: date | None = None
    page: int = 1
    per_page: int = PER_PAGE

    @classmethod
    def parse(cls, params: Mapping[str, str]) -> GameFilter:
        """From query parameters; empty ones are left out. Bad values are refused with
        ``bad_filter`` (422), naming the parameter."""
        values = {name: value.strip() for name, value in params.items() if value.strip()}
        unknown = sorted(set(values) - {"status", "player", "since", "until", "page",
                                        "per_page"})
        if unknown:
            raise _refuse_filter(f"unknown filter {unknown[0]!r}", unknown[0])
        status = values.get("status")
        if status is not None and status not in GAME_STATUSES:
            raise _refuse_filter(f"status must be one of {', '.join(GAME_STATUSES)}", "status")
        player = values.get("player")
        if player is not None and len(player) > NAME_MAX:
            raise _refuse_filter(f"player: at most {NAME_MAX} characters", "player")
        if player is not None and not player.isprintable():
            raise _refuse_filter("player: no control characters", "player")
        since, until = cls._date(values, "since"), cls._date(values, "until")
        if since is not None and until is not None and since > until:
            raise _refuse_filter("since is after until", "since")
        page = cls._number(values, "page", 1, 1, 1_000_000)
        per_page = cls._number(values, "per_page", PER_PAGE, 1, PER_PAGE_MAX)
        return cls(status, player, since, until, page, per_page)

    @staticmethod
    def _date(values: Mapping[str, str], name: str) -> date | None:
        if name not in values:
            return None
        try:
            return date.fromisoformat(values[name])
        except ValueError:
            raise _refuse_filter(f"{name} must be a date such as 2026-11-21", name) from None

    @staticmethod
    def _number(values: Mapping[str, str], name: str, default: int, low: int,
                high: int) -> int:
        if name not in values:
            return default
        raw = values[name]
        # isdigit() alone admits "²", which int() refuses; the length bounds int()'s work.
        if not (raw.isascii() and raw.isdigit() and len(raw) <= len(str(high))) \
                or not low <= int(raw) <= high:
            raise _refuse_filter(f"{name} must be a whole number from {low} to {high}", name)
        return int(raw)

    def query(self) -> GameQuery:
        """The database query; dates are whole UTC days, both ends included."""
        def midnight(day: date) -> datetime:
            return datetime(day.year, day.month, day.day, tzinfo=UTC)

        return GameQuery(
            status=self.status, player=self.player,
            created_from=midnight(self.since) if self.since else None,
            created_before=midnight(self.until) + timedelta(days=1)
            if self.until and self.until < date.max else None)

    def params(self, page: int | None = None) -> dict[str, str]:
        """As query parameters (the defaults left out), for links to other pages."""
        out = {"status": self.status or "", "player": self.player or "",
               "since": self.since.isoformat() if self.since else "",
               "until": self.until.isoformat() if self.until else "",
               "page": str(page or self.page),
               "per_page": str(self.per_page) if self.per_page != PER_PAGE else ""}
        if out["page"] == "1":
            out["page"] = ""
        return {name: value for name, value in out.items() if value}


# ---------------------------------------------------------------------------- replays
@dataclass
class _Stored:
    """A game as the database holds it."""

    row: GameRow
    seats: Sequence[Seat]
    actions: Sequence[GameAction]

    def names(self) -> list[str | None]:
        by_seat = {s.seat: s.name for s in self.seats}
        return [by_seat.get(0), by_seat.get(1)]


def _iso(moment: datetime) -> str:
    return moment.isoformat()


def _replay(stored: _Stored, upto: int | None = None
            ) -> tuple[Game, list[list[dict[str, Any]]]]:
    """The game after its first ``upto`` actions (all by default), and each action's full
    events (nothing filtered out)."""
    row = stored.row
    game = Game.new(row.seed, Options.from_json(row.options))
    events: list[list[dict[str, Any]]] = []
    for entry in stored.actions[:upto]:
        try:
            events.append(events_json(game.apply(entry.action, seat=entry.seat)))
        except (IllegalActionError, MalformedActionError) as error:
            raise ServiceError(
                "replay_failed",
                f"action {entry.seq} of game {row.id} does not replay under engine version "
                f"{ENGINE_VERSION}: {error}", 500, params={"seq": entry.seq}) from None
    return game, events


def _log_entry(entry: GameAction, names: list[str | None],
               events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"seq": entry.seq, "seat": entry.seat, "name": names[entry.seat],
                           "action": entry.action, "notation": entry.notation,
                           "at": _iso(entry.created_at)}
    if events is not None:
        out["events"] = events
    return out


def _admin_action_json(action: AdminAction) -> dict[str, Any]:
    return {"id": action.id, "game_id": action.game_id, "kind": action.kind,
            "detail": action.detail, "client": action.client, "at": _iso(action.created_at)}


class AdminService:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], settings: Settings,
                 games: GameService, clock: Callable[[], float] = time.time) -> None:
        self._sessions = sessions
        self._settings = settings
        self._games = games
        self.clock = clock
        """Seconds since the epoch; tests may replace it to make logins expire."""
        self.throttle = PasswordThrottle(
            games.limits, attempts=settings.login_attempts,
            attempts_per_account=settings.login_attempts_per_account)
        password = settings.admin_secret()
        self._password_digest = None if password is None else _digest(password)
        # A password change ends every admin session: the session holds this fingerprint.
        self._fingerprint = None if password is None else hmac.new(
            settings.session_secret().encode(), b"duel-admin\0" + password.encode(),
            hashlib.sha256).hexdigest()

    # ------------------------------------------------------------------ login
    @property
    def is_open(self) -> bool:
        """False when no admin password is set (production without DUEL_ADMIN_PASSWORD)."""
        return self._fingerprint is not None

    async def login(self, password: str, attempt: Attempt) -> dict[str, Any]:
        """The session value of an admin login, if ``password`` is right; refusals:
        ``admin_disabled`` (503), ``too_many_attempts`` (429: the password was not even
        checked), ``bad_password`` (401)."""
        if self._password_digest is None or self._fingerprint is None:
            raise ServiceError("admin_disabled", "the admin pages are closed on this server "
                               "(set DUEL_ADMIN_PASSWORD to open them)", 503)
        await self.throttle.attempt(ACCOUNT, attempt)
        if not hmac.compare_digest(_digest(password), self._password_digest):
            raise ServiceError("bad_password", "wrong password", 401)
        await self.throttle.succeeded(ACCOUNT, attempt)
        return {"at": int(self.clock()), "key": self._fingerprint,
                "id": secrets.token_urlsafe(LOGIN_ID_BYTES)}

    def is_admin(self, session: Mapping[str, Any]) -> bool:
        """Whether the (verified) session holds an admin login that is still valid."""
        login = session.get(SESSION_KEY)
        if self._fingerprint is None or not isinstance(login, dict):
            return False
        at, key = login.get("at"), login.get("key")
        if not isinstance(key, str) or not isinstance(at, int | float) or isinstance(at, bool):
            return False
        age = self.clock() - at
        return (hmac.compare_digest(key.encode(), self._fingerprint.encode())
                and -CLOCK_SKEW_SECONDS <= age < self._settings.admin_session_hours * 3600)

    async def holds_login(self, session: Mapping[str, Any]) -> bool:
        """Whether the session holds an admin login that is valid (:meth:`is_admin`) and
        not logged out of, in this browser or with another copy of its cookie. A login of
        the release before, which has no id, stands until it expires. The database
        unreadable a moment, a valid login stands meanwhile."""
        if not self.is_admin(session):
            return False
        login_id = session[SESSION_KEY].get("id")
        if not isinstance(login_id, str):
            return True
        try:
            async with self._sessions() as db:
                return await db.get(EndedSession, _ended_id(login_id)) is None
        except STORAGE_ERRORS:
            log.warning("could not check an admin login", exc_info=True)
            return True

    async def end_login(self, session: Mapping[str, Any]) -> None:
        """The session's admin login is logged out of: no copy of its cookie holds it any
        more, on any process. Kept as long as such a login could still be valid."""
        login = session.get(SESSION_KEY)
        login_id = login.get("id") if isinstance(login, dict) else None
        if not isinstance(login_id, str):
            return
        now = datetime.now(UTC)
        async with self._sessions() as db:
            await db.execute(delete(EndedSession).where(
                EndedSession.player_id == ACCOUNT,
                EndedSession.ended_at < now - timedelta(hours=self._settings.admin_session_hours)))
            if await db.get(EndedSession, _ended_id(login_id)) is None:
                db.add(EndedSession(session_id=_ended_id(login_id), player_id=ACCOUNT,
                                    ended_at=now))
            try:
                await db.commit()
            except IntegrityError:  # another copy logged out at the same moment: done
                await db.rollback()

    # ------------------------------------------------------------------ reading
    async def list_games(self, filters: GameFilter) -> dict[str, Any]:
        """One page of the games that match, newest first."""
        async with self._sessions() as session:
            games, total = await admin_repository.find_games(
                session, filters.query(), offset=(filters.page - 1) * filters.per_page,
                limit=filters.per_page)
            seats = await repository.seats_of(session, [g.id for g in games])
        items = [{**game_entry(g, seats[g.id]), "listed": g.listed,
                  "engine_version": g.engine_version} for g in games]
        return {"items": items, "total": total, "page": filters.page,
                "per_page": filters.per_page, "pages": _page_count(total, filters.per_page)}

    async def game(self, game_id: str) -> dict[str, Any]:
        """Everything about a game: its facts, players, result, the whole log with each
        action's full events, what admins did to it, and its chat (both channels)."""
        stored = await self._stored(game_id)
        game, events = _replay(stored)
        names = stored.names()
        row = stored.row
        outcome = game.outcome()
        async with self._sessions() as session:
            admin_actions, _ = await admin_repository.find_admin_actions(
                session, game_id, offset=0, limit=PER_PAGE_MAX)
            chat = await session.scalars(select(ChatMessage).where(
                ChatMessage.game_id == game_id).order_by(ChatMessage.id))
            chat_lines = [entry_json(line) for line in chat]
        return {
            "game_id": row.id, "status": row.status, "origin": row.origin,
            "listed": row.listed, "seed": row.seed, "options": row.options,
            "engine_version": row.engine_version, "version": row.version,
            "to_act": row.to_act, "winner": row.winner, "victory": row.victory,
            "result": outcome.to_json() if outcome is not None else None,
            "rematch_id": row.rematch_id, "time_control": row.time_control,
            "created_at": _iso(row.created_at), "updated_at": _iso(row.updated_at),
            "players": [{"seat": s.seat, "name": s.name, "player_id": s.player_id,
                         "computer": s.computer, "joined_at": _iso(s.joined_at),
                         "left_at": _iso(s.left_at) if s.left_at else None}
                        for s in stored.seats],
            "state_hash": game.state_hash(),
            "log": [_log_entry(entry, names, entry_events)
                    for entry, entry_events in zip(stored.actions, events, strict=True)],
            "admin_actions": [_admin_action_json(a) for a in admin_actions],
            "chat": chat_lines,
        }

    async def position(self, game_id: str, seq: int) -> dict[str, Any]:
        """The board after the first ``seq`` actions (0: as set up), every hidden card
        shown, with the action that led there and its events."""
        stored = await self._stored(game_id)
        if not 0 <= seq <= len(stored.actions):
            raise ServiceError("bad_seq", f"seq must be from 0 to {len(stored.actions)}", 404,
                               params={"max": len(stored.actions)})
        game, events = _replay(stored, seq)
        move = None
        if seq:
            move = _log_entry(stored.actions[seq - 1], stored.names(), events[-1])
        return {"game_id": game_id, "seq": seq, "version": len(stored.actions),
                "view": view(game, None, reveal=True), "move": move,
                "state_hash": game.state_hash()}

    async def public_position(self, game_id: str, seq: int) -> dict[str, Any]:
        """The board after the first ``seq`` actions as a spectator saw it then; the last
        one of a finished game with everything revealed (nothing is hidden any more)."""
        stored = await self._stored(game_id)
        last = len(stored.actions)
        if not 0 <= seq <= last:
            raise ServiceError("bad_seq", f"seq must be from 0 to {last}", 404,
                               params={"max": last})
        game, _ = _replay(stored, seq)
        revealed = seq == last and stored.row.status == "finished"
        return {"game_id": game_id, "seq": seq, "version": last, "status": stored.row.status,
                "revealed": revealed, "view": view(game, None, reveal=revealed)}

    async def export(self, game_id: str) -> dict[str, Any]:
        """The game as a record that :meth:`import_record` (and ``Game.replay``) take."""
        stored = await self._stored(game_id)
        game, _ = _replay(stored)
        row = stored.row
        names = stored.names()
        result = None
        if row.status == "finished" or game.outcome() is not None:
            result = {"winner": row.winner, "victory": row.victory}
        return {
            "format": RECORD_FORMAT, "format_version": RECORD_FORMAT_VERSION,
            "game_id": row.id, "engine_version": row.engine_version, "seed": row.seed,
            "options": row.options, "status": row.status, "result": result,
            "players": [{"seat": seat, "name": names[seat]} for seat in (0, 1)],
            "created_at": _iso(row.created_at),
            "actions": [{"seq": a.seq, "seat": a.seat, "action": a.action,
                         "notation": a.notation, "at": _iso(a.created_at)}
                        for a in stored.actions],
            "final_state_hash": game.state_hash(),
        }

    async def admin_actions(self, game_id: str | None = None, page: int = 1,
                            per_page: int = PER_PAGE) -> dict[str, Any]:
        """What admins did (to one game, with ``game_id``), the latest first."""
        if game_id is not None and not repository.GAME_ID.fullmatch(game_id):
            raise _refuse_filter("game_id is not a game's id", "game_id")
        async with self._sessions() as session:
            actions, total = await admin_repository.find_admin_actions(
                session, game_id, offset=(page - 1) * per_page, limit=per_page)
        return {"items": [_admin_action_json(a) for a in actions], "total": total,
                "page": page, "per_page": per_page, "pages": _page_count(total, per_page)}

    # ------------------------------------------------------------------ acting
    async def import_record(self, record: Any, client: str | None) -> str:
        """Store a game record for inspection as a new game (status ``imported``, never
        played, not listed); answers its id. The record must replay, action by action, to
        its own final state hash; otherwise it is refused and nothing is stored."""
        checked = check_record(record)
        outcome = checked.game.outcome()
        row = new_game_row(checked.options.to_json(), status="imported", origin="import",
                           listed=False, seed=checked.seed)
        game_id = row.id
        row.version = len(checked.actions)
        row.winner = outcome.winner if outcome else None
        row.victory = outcome.victory.value if outcome else None
        # Nobody holds the seats: their tokens are random and thrown away at once.
        seats = [Seat(game_id=game_id, seat=seat, name=checked.names[seat],
                      token_hash=hashlib.sha256(secrets.token_bytes(32)).hexdigest())
                 for seat in (0, 1)]
        for action in checked.actions:
            action.game_id = game_id
        async with self._sessions() as session:
            await admin_repository.add_imported_game(session, row, seats, checked.actions)
            admin_repository.add_admin_action(
                session, kind="import", game_id=game_id, client=client,
                detail={"source": checked.source, "actions": len(checked.actions),
                        "final_state_hash": checked.game.state_hash()})
            await session.commit()
        return game_id

    async def abort(self, game_id: str, reason: Any, client: str | None) -> None:
        """Stop a waiting or running game: both players are told why, and the abort is
        logged with the game."""
        if not isinstance(reason, str):
            raise ServiceError("bad_reason", "give the reason as text", 422,
                               params={"cause": "not_text"})
        reason = " ".join(reason.split())
        if not 1 <= len(reason) <= REASON_MAX:
            raise ServiceError("bad_reason", f"a reason has 1 to {REASON_MAX} characters", 422,
                               params={"cause": "length", "max": REASON_MAX})
        if any(unicodedata.category(ch).startswith("C") for ch in reason):
            raise ServiceError("bad_reason", "a reason cannot hold control characters", 422,
                               params={"cause": "control"})
        await self._games.abort(game_id, reason=reason, client=client)

    # ------------------------------------------------------------------ internals
    async def _stored(self, game_id: str) -> _Stored:
        async with self._sessions() as session:
            row = await repository.get_game(session, game_id)
            if row is None:
                raise ServiceError("not_found", f"no game {game_id!r}", 404)
            seats = await repository.get_seats(session, game_id)
            actions = await repository.actions_after(session, game_id, 0)
        return _Stored(row, seats, actions)
