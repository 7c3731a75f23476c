"""The one refusal every service raises, and the failures of storage beneath them."""

from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError

STORAGE_ERRORS: tuple[type[Exception], ...] = (SQLAlchemyError, OSError)
"""What a database that is down or unreachable raises: SQLAlchemy's errors, and the
``OSError`` asyncpg raises when it cannot connect at all."""
UNAVAILABLE = "the server cannot reach its records just now; try again shortly"


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
