"""Who is asking: the player of the signed session cookie, if any; and whether a socket
comes from this site's pages."""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from app.api.hosts import own_host, reached_host
from app.api.security import ASSET_PATHS
from app.config import Settings
from app.services.accounts import AccountService
from app.services.errors import STORAGE_ERRORS
from app.services.players import SESSION_KEY, session_player_id

log = logging.getLogger(__name__)


def session_of(connection: HTTPConnection) -> dict[str, Any]:
    """The verified session (empty when there is none or it was tampered with). It is the
    request's own dict, so what is written to it is sent back in the cookie."""
    session: dict[str, Any] | None = connection.scope.get("session")
    return session if session is not None else {}


def player_id_of(connection: HTTPConnection) -> str | None:
    return session_player_id(session_of(connection))


def renew_session(connection: HTTPConnection) -> None:
    """Send the cookie again, at most once a day: it then lasts its full age from this
    visit, not from the day the name was picked."""
    session = session_of(connection)
    today = datetime.now(UTC).date().isoformat()
    if session_player_id(session) is not None and session.get("renewed") != today:
        session["renewed"] = today


EPOCH_KEY = "epoch"
"""A login's session: the account's ``session_epoch`` when it logged in."""
SESSION_ID_KEY = "sid"
"""The session's own id, made when it comes to hold a player: logging out ends it, copies
of the cookie included (``AccountService.end_session``)."""


def session_id_of(connection: HTTPConnection) -> str | None:
    value = session_of(connection).get(SESSION_ID_KEY)
    return value if isinstance(value, str) else None


def hold_player(connection: HTTPConnection, player_id: str, epoch: int | None = None) -> None:
    """The browser now holds ``player_id`` (with a login's ``epoch``), in a session of a new
    id: one that was logged out of, or made before the login, cannot stand for it."""
    session = session_of(connection)
    session[SESSION_KEY] = player_id
    if epoch is None:
        session.pop(EPOCH_KEY, None)
    else:
        session[EPOCH_KEY] = epoch
    session[SESSION_ID_KEY] = secrets.token_urlsafe(16)


def forget_player(connection: HTTPConnection) -> None:
    """The browser no longer holds a player (a guest's, or an account's login)."""
    _drop_player(session_of(connection))


def _drop_player(session: dict[str, Any]) -> None:
    for key in (SESSION_KEY, EPOCH_KEY, SESSION_ID_KEY):
        session.pop(key, None)


DEVICES_KEY = "login_devices"
"""Where a browser's session keeps, for each account it logged in to (the admin's, a
player's), the id the password throttle knows it by (``app/services/limits.py``): its own
mistakes are counted apart from anyone else's guesses."""


def login_devices(connection: HTTPConnection) -> dict[str, str]:
    devices = session_of(connection).get(DEVICES_KEY)
    return {k: v for k, v in devices.items() if isinstance(v, str)} \
        if isinstance(devices, dict) else {}


def remember_device(connection: HTTPConnection, account: str) -> None:
    """The right password for ``account`` came from this browser: from now on the account
    knows it."""
    devices = login_devices(connection)
    if account not in devices:
        session_of(connection)[DEVICES_KEY] = {**devices, account: secrets.token_urlsafe(16)}


FOREIGN_ORIGIN = 1008
"""The close code refusing a socket opened by another site's page (policy violation);
sent before the handshake, it reaches the browser as HTTP 403."""


def _origin_of(url: str) -> str:
    """``scheme://host[:port]`` of an absolute URL, as browsers write an Origin."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def same_site_origin(websocket: WebSocket, settings: Settings) -> bool:
    """Whether a socket may open: its ``Origin`` (which a browser always sends, and a page
    cannot forge) is this site's: the public URL's, or the one the browser reached the
    server at (its ``Host``) when that host is this site's own (``app/api/hosts.py``: not
    a name another site may have pointed here). Without an Origin the client is not a
    browser, and a browser's cookies are not at stake."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    origin = origin.lower()
    if settings.public_url and origin == _origin_of(settings.public_url):
        return True
    host = reached_host(websocket)
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    return host is not None and origin == f"{scheme}://{host}" and own_host(host, settings)


async def _holds_its_player(app: Any, session: dict[str, Any]) -> bool:
    """Whether the session still holds the player it names (true when it names none)."""
    player_id = session_player_id(session)
    if player_id is None:
        return True
    epoch, session_id = session.get(EPOCH_KEY), session.get(SESSION_ID_KEY)
    accounts: AccountService = app.state.accounts
    try:
        return (epoch is None or isinstance(epoch, int)) \
            and (session_id is None or isinstance(session_id, str)) \
            and await accounts.session_valid(player_id, epoch, session_id)
    except STORAGE_ERRORS:  # unreadable a moment: the session stands meanwhile
        log.warning("could not check a session", exc_info=True)
        return True


async def session_holds(connection: HTTPConnection) -> bool:
    """Whether the session a socket opened with still holds its player: an open socket
    asks before each message it acts on (the account may have logged out everywhere
    since)."""
    return await _holds_its_player(connection.app, session_of(connection))


class AccountSessions:
    """Ends, before anything reads it, a session that no longer holds its player: a login
    the account has since ended (log out everywhere, a new password), a guest's session of
    a player who has since registered (it never logged in), a player who is gone. Its
    player id and epoch are dropped, and the cookie sent back without them. A session from
    before sessions had ids gets one, so that logging out can end it. Sits inside
    Starlette's ``SessionMiddleware``, for HTTP and sockets alike; the pages' files, which
    read no session, pass untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        session = scope.get("session") if scope["type"] in ("http", "websocket") else None
        if session and not scope["path"].startswith(ASSET_PATHS):
            if not await _holds_its_player(scope["app"], session):
                _drop_player(session)
            elif SESSION_KEY in session and SESSION_ID_KEY not in session:
                session[SESSION_ID_KEY] = _id_of_older_session(scope["app"], session)
        await self.app(scope, receive, send)


def _id_of_older_session(app: Any, session: dict[str, Any]) -> str:
    """The id a session from before sessions had ids is given: the same for every copy of
    its cookie (its player and login epoch, keyed by the site's secret), so that logging out
    with one copy ends the others too."""
    secret = app.state.settings.session_secret().encode()
    made = f"{session[SESSION_KEY]}:{session.get(EPOCH_KEY)}".encode()
    return hmac.new(secret, made, hashlib.sha256).hexdigest()[:22]
