"""Who is asking: the player of the signed session cookie, if any."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from starlette.requests import HTTPConnection

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
