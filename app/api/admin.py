"""``/admin``: the admin pages and their JSON API (``/admin/api/...``), behind a password.

Every route but the login form belongs to one of two routers whose route class checks the
admin login before anything else runs (before the body is even read): pages send a
browser without one to the login form (303), API routes answer 401 ``admin_required``.
When the admin pages are closed (production without ``DUEL_ADMIN_PASSWORD``), the API
answers 503 ``admin_disabled`` and the login form says why.

The login lives in the signed session cookie, next to the player's id (see
``AdminService.login``). API routes that change anything take JSON bodies only
(``Content-Type: application/json``): a form on another site cannot send one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Annotated, Any
from urllib.parse import parse_qs, urlencode

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.routing import APIRoute

from app import jsontext
from app.codes import error_params
from app.db.models import GAME_STATUSES
from app.engine.record import RecordError
from app.engine.record import from_text as record_from_text
from app.services.admin import ACCOUNT, SESSION_KEY, AdminService, GameFilter
from app.services.errors import STORAGE_ERRORS, ServiceError, retry_after
from app.services.limits import Attempt

from .clients import client_address
from .identity import login_devices, remember_device, session_of
from .pages import refresh_bundles, templates
from .security import local_path

log = logging.getLogger(__name__)

LOGIN_PATH = "/admin/login"
MAX_FORM_BYTES = 4096
MAX_JSON_BYTES = 1 << 20
"""A record of a whole game is some tens of kilobytes."""
NO_STORE = {"Cache-Control": "no-store"}
"""Admin pages show secrets: no cache may keep them."""


def _when(value: str | None) -> str:
    """An ISO time as the pages show it: UTC, to the second."""
    if not value:
        return ""
    return datetime.fromisoformat(value).strftime("%Y-%m-%d %H:%M:%S UTC")


templates.env.filters["when"] = _when


def _admin(request: Request) -> AdminService:
    admin: AdminService = request.app.state.admin
    return admin


Admin = Annotated[AdminService, Depends(_admin)]


def _client(request: Request) -> str:
    return client_address(request, request.app.state.settings.proxy_networks)


RECORD_TEXT = "text/x-duel-record"
"""The media type of a record's text. Not text/plain, which a form on another site may
post (nor any type such a form can send): a change takes a body no other site can send."""


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message,
                                   "params": error_params(code)}},
                        status_code=status, headers=NO_STORE)


Handler = Callable[[Request], Coroutine[Any, Any, Response]]


class _AdminApiRoute(APIRoute):
    """An API route that refuses, before anything else, a request without an admin login."""

    def get_route_handler(self) -> Handler:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            admin = _admin(request)
            if not admin.is_open:
                return _error(503, "admin_disabled", "the admin pages are closed on this server")
            if not await admin.holds_login(session_of(request)):
                return _error(401, "admin_required", "log in at /admin/login first")
            response = await handler(request)
            response.headers.update(NO_STORE)
            return response

        return guarded


class _AdminPageRoute(APIRoute):
    """A page that sends a browser without an admin login to the login form, which brings
    it back here afterwards."""

    def get_route_handler(self) -> Handler:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            if not await _admin(request).holds_login(session_of(request)):
                here = request.url.path
                if request.url.query:
                    here += f"?{request.url.query}"
                return RedirectResponse(f"{LOGIN_PATH}?{urlencode({'next': here})}", 303,
                                        headers=NO_STORE)
            response = await handler(request)
            response.headers.update(NO_STORE)
            return response

        return guarded


_login = APIRouter(prefix="/admin")
_pages = APIRouter(prefix="/admin", route_class=_AdminPageRoute)
_api = APIRouter(prefix="/admin/api", route_class=_AdminApiRoute)


def _safe_next(target: str | None) -> str:
    """Where to go after logging in: an admin page of this site, never elsewhere."""
    found = local_path(target, under="/admin")
    if found and not found.startswith((LOGIN_PATH, "/admin/logout")):
        return found
    return "/admin"


def _page(request: Request, name: str, context: dict[str, Any],
          status: int = 200) -> HTMLResponse:
    return templates.TemplateResponse(request, f"admin/{name}", context, status_code=status,
                                      headers=NO_STORE)


# ---------------------------------------------------------------------------- login
def _refusal(code: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """A refusal as a page words it (templates/admin/_words.html), in its language."""
    return {"code": code, "params": params or {}}


def _login_page(request: Request, admin: AdminService, target: str,
                refusal: dict[str, Any] | None, status: int) -> HTMLResponse:
    return _page(request, "login.html", {"next": target, "refusal": refusal,
                                         "closed": not admin.is_open}, status)


def _first(fields: dict[str, list[str]], name: str) -> str | None:
    values = fields.get(name)
    return values[0] if values else None


@_login.get("/login", response_class=HTMLResponse)
async def login_form(request: Request, admin: Admin) -> Response:
    target = _safe_next(request.query_params.get("next"))
    if not admin.is_open:
        return _login_page(request, admin, target, None, 503)
    if await admin.holds_login(session_of(request)):
        return RedirectResponse(target, 303)
    return _login_page(request, admin, target, None, 200)


@_login.post("/login", response_class=HTMLResponse)
async def login(request: Request, admin: Admin) -> Response:
    """The login form's POST (``password``, ``next``, form-encoded)."""
    body = await _read_body(request, MAX_FORM_BYTES)
    try:
        fields = parse_qs(body.decode("utf-8", "replace"), max_num_fields=10)
    except ValueError:  # more fields than the form has
        return _login_page(request, admin, "/admin", _refusal("bad_form"), 400)
    target = _safe_next(_first(fields, "next"))
    if not admin.is_open:
        return _login_page(request, admin, target, None, 503)
    attempt = Attempt(address=_client(request), device=login_devices(request).get(ACCOUNT))
    try:
        login_value = await admin.login(_first(fields, "password") or "", attempt)
    except ServiceError as error:
        page = _login_page(request, admin, target, _refusal(error.code, error.params),
                           error.status)
        if error.status == 429:  # as the API's 429s say it (app/main.py)
            page.headers["Retry-After"] = str(retry_after(error))
        return page
    session_of(request)[SESSION_KEY] = login_value
    remember_device(request, ACCOUNT)
    return RedirectResponse(target, 303, headers=NO_STORE)


@_pages.post("/logout")
async def logout(request: Request, admin: Admin) -> Response:
    """End the admin login, in every copy of this browser's cookie; the player's own
    session (if any) stays."""
    session = session_of(request)
    try:
        await admin.end_login(session)
    except STORAGE_ERRORS:  # this browser is logged out all the same; copies stand
        log.warning("could not record an admin logout", exc_info=True)
    session.pop(SESSION_KEY, None)
    return RedirectResponse(LOGIN_PATH, 303)


# ---------------------------------------------------------------------------- pages
@_pages.get("", response_class=HTMLResponse)
async def game_list_page(request: Request, admin: Admin) -> Response:
    error = None
    try:
        filters = GameFilter.parse(request.query_params)
    except ServiceError as refusal:
        filters, error = GameFilter(), refusal
    listing = await admin.list_games(filters)
    pages = listing["pages"]

    def link(page: int) -> str:
        query = urlencode(filters.params(page))
        return f"/admin?{query}" if query else "/admin"

    context = {
        "filters": filters, "listing": listing, "statuses": GAME_STATUSES,
        "refusal": _refusal(error.code, error.params) if error else None,
        "previous": link(filters.page - 1) if filters.page > 1 else None,
        "next": link(filters.page + 1) if filters.page < pages else None,
        "admin_actions": (await admin.admin_actions(per_page=10))["items"],
    }
    return _page(request, "games.html", context, 422 if error else 200)


@_pages.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: str, admin: Admin) -> Response:
    try:
        game = await admin.game(game_id)
    except ServiceError as error:
        return _page(request, "missing.html", {"refusal": _refusal(error.code, error.params)},
                     error.status)
    await refresh_bundles(request)
    return _page(request, "game.html", {"game": game,
                                        "running": game["status"] in ("waiting", "active")})


@_pages.get("/import", response_class=HTMLResponse)
async def import_page(request: Request) -> Response:
    await refresh_bundles(request)
    return _page(request, "import.html", {})


# ---------------------------------------------------------------------------- API
async def _read_body(request: Request, limit: int) -> bytes:
    """The request body, refused (413) beyond ``limit`` bytes without reading on."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ServiceError("too_large", f"the body is larger than {limit} bytes", 413,
                           params={"limit": limit})
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ServiceError("too_large", f"the body is larger than {limit} bytes", 413,
                               params={"limit": limit})
    return bytes(body)


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


async def _json_body(request: Request) -> Any:
    if _media_type(request) != "application/json":
        raise ServiceError("json_required",
                           "send the body as JSON (Content-Type: application/json)", 415)
    body = await _read_body(request, MAX_JSON_BYTES)
    try:
        return jsontext.loads(body)
    except (ValueError, RecursionError):  # RecursionError: nested too deep to read
        raise ServiceError("bad_json", "the body is not valid JSON", 422) from None


@_api.get("/games")
async def list_games(request: Request, admin: Admin) -> dict[str, Any]:
    """Games by ``status``, ``player`` (part of a seat's name), ``since`` and ``until``
    (dates, both included), ``page`` and ``per_page`` (25 by default, 100 at most)."""
    return await admin.list_games(GameFilter.parse(request.query_params))


@_api.get("/games/{game_id}")
async def game_detail(game_id: str, admin: Admin) -> dict[str, Any]:
    return await admin.game(game_id)


@_api.get("/games/{game_id}/positions/{seq}")
async def position(game_id: str, seq: int, admin: Admin) -> dict[str, Any]:
    """The board after ``seq`` actions, hidden cards shown."""
    return await admin.position(game_id, seq)


@_api.get("/games/{game_id}/export")
async def export(game_id: str, admin: Admin) -> Response:
    record = await admin.export(game_id)
    return JSONResponse(record, headers={
        "Content-Disposition": f'attachment; filename="duel-{game_id}.json"'})


@_api.post("/games/{game_id}/abort")
async def abort(game_id: str, request: Request, admin: Admin) -> dict[str, Any]:
    """``{"reason": "..."}``: both players are told, and the abort is logged."""
    body = await _json_body(request)
    if not isinstance(body, dict) or set(body) != {"reason"}:
        raise ServiceError("bad_request", 'send {"reason": "..."}', 422)
    await admin.abort(game_id, body["reason"], _client(request))
    return {"game_id": game_id, "status": "aborted"}


@_api.post("/import", status_code=201)
async def import_record(request: Request, admin: Admin) -> dict[str, Any]:
    """A game record (as exported, or its text: docs/records.md) stored as a new game for
    inspection."""
    if _media_type(request) == RECORD_TEXT:
        body = await _read_body(request, MAX_JSON_BYTES)
        try:
            record = record_from_text(body.decode("utf-8"))
        except (UnicodeDecodeError, RecordError) as error:
            raise ServiceError("bad_record", f"not a record's text: {error}", 422) from None
    else:
        record = await _json_body(request)
    game_id = await admin.import_record(record, _client(request))
    return {"game_id": game_id, "url": f"/admin/games/{game_id}"}


@_api.get("/actions")
async def admin_actions(request: Request, admin: Admin) -> dict[str, Any]:
    """What admins did, the latest first: ``game_id`` (one game's), ``page``,
    ``per_page``."""
    params = request.query_params
    unknown = sorted(set(params) - {"game_id", "page", "per_page"})
    if unknown:  # a filter this list does not take must not look as if it applied
        raise ServiceError("bad_filter", f"unknown filter {unknown[0]!r}", 422,
                           params={"field": unknown[0]})
    game_id = params.get("game_id") or None
    paging = GameFilter.parse({k: v for k, v in params.items() if k in ("page", "per_page")})
    return await admin.admin_actions(game_id, paging.page, paging.per_page)


router = APIRouter(include_in_schema=False)
router.include_router(_login)
router.include_router(_pages)
router.include_router(_api)
