"""Who is asking: the player of the signed session cookie, if any; and whether a socket
comes from this site's pages."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from app.services.players import session_player_id


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


FOREIGN_ORIGIN = 1008
"""The close code refusing a socket opened by another site's page (policy violation);
sent before the handshake, it reaches the browser as HTTP 403."""


def _origin_of(url: str) -> str:
    """``scheme://host[:port]`` of an absolute URL, as browsers write an Origin."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def same_site_origin(websocket: WebSocket, public_url: str) -> bool:
    """Whether a socket may open: its ``Origin`` (which a browser always sends, and a page
    cannot forge) is this site's, as the public URL names it or as the browser reached
    it (the ``Host`` it asked). Without an Origin the client is not a browser, and a
    browser's cookies are not at stake."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    reached = f"{scheme}://{websocket.headers.get('host', '')}".lower()
    return origin.lower() in {_origin_of(public_url), reached}
