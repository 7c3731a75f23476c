"""Request addresses that can name nothing here, refused before any route, file or session
reads them (:class:`AddressCheck`, a pure ASGI middleware).

- A NUL byte or another control character in the path: no id, file or page has one,
  PostgreSQL refuses NUL in text, and the file system refuses it in a name. Answered
  ``400 bad_address`` (``params.cause``: ``control``). The query is each route's to
  check: one that reads a parameter refuses a bad one by its own code, naming it.
- A path segment over :data:`SEGMENT_MAX` bytes (the longest file name most file systems
  take; our ids are about 22) or a path over :data:`PATH_MAX` bytes: ``414 bad_address``
  (``params.cause``: ``too_long``, ``params.max``: the limit passed).

A socket with such an address is closed before its handshake (the browser sees HTTP 403).
The check sits outside the session's middleware: a refused request reads no session, and
so touches no database.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Receive, Scope, Send

from .refusals import refusal_response

SEGMENT_MAX = 255
"""Bytes in one path segment, as sent (percent-encoded)."""
PATH_MAX = 2048
"""Bytes in the whole path, as sent (percent-encoded)."""
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
REFUSED_SOCKET = 1008
"""A socket's close code before its handshake (policy violation): HTTP 403 to the browser."""


def address_fault(scope: Scope) -> tuple[int, str, dict[str, object]] | None:
    """Why the request's address is refused (status, English message, params), or None."""
    path: str = scope["path"]
    raw: bytes = scope.get("raw_path") or path.encode("utf-8", "surrogateescape")
    if CONTROL.search(path):
        return 400, "the address holds a control character", {"cause": "control"}
    if len(raw) > PATH_MAX:
        return 414, f"a path has at most {PATH_MAX} bytes", {"cause": "too_long",
                                                             "max": PATH_MAX}
    if any(len(segment) > SEGMENT_MAX for segment in raw.split(b"/")):
        return 414, f"a path segment has at most {SEGMENT_MAX} bytes", {"cause": "too_long",
                                                                        "max": SEGMENT_MAX}
    return None


class AddressCheck:
    """Refuses, before anything else reads it, a request whose address names nothing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        fault = address_fault(scope) if scope["type"] in ("http", "websocket") else None
        if fault is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": REFUSED_SOCKET, "reason": ""})
        else:
            status, message, params = fault
            await refusal_response(status, "bad_address", message, params=params)(
                scope, receive, send)
