"""The one refusal every service raises, and the failures of storage beneath them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from app.codes import error_params

STORAGE_ERRORS: tuple[type[Exception], ...] = (SQLAlchemyError, OSError)
"""What a database that is down or unreachable raises: SQLAlchemy's errors, and the
``OSError`` asyncpg raises when it cannot connect at all."""
UNAVAILABLE = "the server cannot reach its records just now; try again shortly"
"""The English ``message`` of ``unavailable`` (for logs; pages word the code)."""


class ServiceError(Exception):
    """A refusal with a stable ``code`` and its ``params`` for clients (listed in
    :data:`app.codes.ERRORS`), an English ``message`` for logs and API users, and an HTTP
    status for the API."""

    def __init__(self, code: str, message: str, status: int = 400,
                 detail: str | None = None, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.detail = detail
        """The engine's own reason for an illegal action (e.g. ``cannot_afford``)."""
        self.params = error_params(code, params, detail)
        """The figures a client words the refusal with (``detail`` among them)."""


RETRY_UNSAID = 5
"""The ``Retry-After`` of a refusal over a limit that has no wait of its own to tell."""


def wait_of(error: ServiceError) -> int | None:
    """The seconds a refusal says to wait (``retry_after``, or the password throttle's
    ``wait``), if it says any."""
    wait = error.params.get("retry_after", error.params.get("wait"))
    return wait if isinstance(wait, int) else None


def retry_after(error: ServiceError) -> int:
    """A refusal's ``Retry-After``: its own wait, or :data:`RETRY_UNSAID`. Every 429 carries
    one (RFC 6585), so that a client knows when to come back."""
    wait = wait_of(error)
    return wait if wait is not None else RETRY_UNSAID
