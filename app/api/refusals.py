"""Refusals as the OpenAPI schema shows them. Every refusal has one shape (built in
``app.main``): ``{"error": {"code", "params", "message", "detail"?}}``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel

from app.codes import error_params


class Refusal(BaseModel):
    code: str
    """Stable: ``not_found``, ``game_full``, ``invalid_request``, ... (``app/codes.py``).
    A page shows the code's text from its catalog, worded with ``params``."""
    params: dict[str, Any] = {}
    """The figures of the refusal (a limit, a field, a seat, the engine's ``detail``)."""
    message: str
    """English, for logs and people reading the API; may change. No page shows it."""
    detail: str | None = None
    """The engine's own reason, where there is one."""


class RefusalBody(BaseModel):
    error: Refusal


_WHEN = {
    # FastAPI's own, before validation: a body its JSON reader cannot read.
    400: "The path holds a NUL or control character (``bad_address``), or the body is "
         "not JSON this server reads (``http_error``): not UTF-8, nested too deeply, or "
         "holding a number of over 4300 digits",
    414: "The path, or one of its segments, is longer than any here (``bad_address``)",
    401: "No credentials, or credentials that open nothing here",
    403: "The invite code is not this game's",
    404: "No game has this id",
    409: "The game's state does not allow it (full, own game, aborted, ...)",
    422: "The body or a parameter fails validation, or a name is not allowed",
    429: "Over a limit (docs/security.md); ``params.retry_after`` says when to try again",
    503: "The database cannot be reached; nothing was changed, try again",
}


def address_refusals() -> dict[int | str, dict[str, Any]]:
    """The refusals of an address that can name nothing (``app/api/paths.py``), which any
    route may answer: the application gives them to every operation of its schema."""
    return refusals_of(400, 414)


def refusals_of(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": RefusalBody, "description": _WHEN[status]}
            for status in statuses}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI responses of a route that may refuse with ``statuses``, and with 503,
    as any route that reads or writes the database may."""
    return refusals_of(*statuses, 503)


def refusal_response(status: int, code: str, message: str, detail: str | None = None,
                     params: Mapping[str, Any] | None = None) -> JSONResponse:
    """A refusal's one body: ``code`` and ``params`` for clients to word (``app/codes.py``),
    ``message`` in English for logs and API users, ``detail`` where there is one."""
    body: dict[str, object] = {"code": code, "message": message,
                               "params": error_params(code, params, detail)}
    if detail is not None:
        body["detail"] = detail
    return JSONResponse({"error": body}, status_code=status)
