"""The one refusal every service raises."""

from __future__ import annotations


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
