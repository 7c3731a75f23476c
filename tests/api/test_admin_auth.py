"""Every admin route refuses without a valid admin login: no session, a tampered or
forged cookie, an expired login, a login made under another password, after logging out,
and when the admin pages are closed (production without a password). The routes are
read from the application itself, so a route added later is checked too.

The checks of the signed cookie run on SQLite alone (storage plays no part in them); the
logouts, which record the login as ended, run on both databases
(tests/api/test_admin_logout.py)."""

from __future__ import annotations

import base64
import gc
import json
import logging
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import SESSION_COOKIE
from tests.factories import (
    admin_login,
    counting_still,
    new_game,
    serve,
    signed_session,
    with_session_cookie,
)

pytestmark = pytest.mark.one_database  # see the module's docstring

PASSWORD = "correct horse battery staple"
PUBLIC = {("GET", "/admin/login"), ("POST", "/admin/login")}
"""The only admin routes open to anyone: the login form and its POST."""
EXPECTED = {
    ("POST", "/admin/logout"), ("GET", "/admin"), ("GET", "/admin/games/{game_id}"),
    ("GET", "/admin/import"), ("GET", "/admin/api/games"),
    ("GET", "/admin/api/games/{game_id}"), ("GET", "/admin/api/games/{game_id}/export"),
    ("GET", "/admin/api/games/{game_id}/positions/{seq}"),
    ("POST", "/admin/api/games/{game_id}/abort"), ("POST", "/admin/api/import"),
    ("GET", "/admin/api/actions"),
}


def _walk(routes: Any) -> Iterator[tuple[str, set[str]]]:
    """(path, methods) of every route, included routers opened (FastAPI keeps them as
    included-router entries whose effective routes carry the full path)."""
    for route in routes:
        contexts = getattr(route, "effective_route_contexts", None)
        if contexts is not None:
            for context in contexts():
                yield context.path, set(context.methods or ())
        elif hasattr(route, "methods") and hasattr(route, "path"):
            yield route.path, set(route.methods or ())
        elif hasattr(route, "routes"):
            yield from _walk(route.routes)


def admin_routes(app: FastAPI) -> list[tuple[str, str]]:
    """Every (method, path) under /admin but the login form."""
    found = {(method, path) for path, methods in _walk(app.routes)
             if path == "/admin" or path.startswith("/admin/") for method in methods}
    return sorted(found - PUBLIC - {("HEAD", path) for _, path in PUBLIC})


def _send(client: TestClient, method: str, path: str, game_id: str) -> Any:
    url = path.replace("{game_id}", game_id).replace("{seq}", "0")
    # A well-formed JSON body, so that only the missing login can be the reason to refuse.
    body = {"reason": "test"} if url.endswith("/abort") else {"format": "duel-game"}
    return client.request(method, url, json=body if method == "POST" else None,
                          follow_redirects=False)


def assert_all_refused(client: TestClient, app: FastAPI, game_id: str,
                       api_status: int = 401, api_code: str = "admin_required") -> None:
    routes = admin_routes(app)
    for method, path in routes:
        response = _send(client, method, path, game_id)
        where = f"{method} {path}"
        if path.startswith("/admin/api/"):
            assert response.status_code == api_status, (where, response.text)
            assert response.json()["error"]["code"] == api_code, where
        else:
            assert response.status_code == 303, (where, response.status_code)
            assert response.headers["location"].startswith("/admin/login?next="), where
    # Nothing refused was done: the game is still on, nothing was imported.
    assert client.get(f"/api/games/{game_id}").json()["status"] == "active"


def _cookie(client: TestClient) -> str:
    value = client.cookies.get(SESSION_COOKIE)
    assert value, "no session cookie"
    return value


@pytest.fixture
def admin_app(make_app: Callable[..., FastAPI]) -> FastAPI:
    return counting_still(make_app(admin_password=PASSWORD, server_heartbeat=3600))


def test_the_routes_found_are_the_admin_routes(admin_app: FastAPI) -> None:
    assert set(admin_routes(admin_app)) == EXPECTED


def test_every_admin_route_refuses_without_a_login(admin_app: FastAPI) -> None:
    with serve(admin_app) as client:
        game_id = new_game(client)[0]["game_id"]
        assert_all_refused(client, admin_app, game_id)
        # The same routes answer once logged in (the GETs; the POSTs are tested elsewhere).
        assert admin_login(client, PASSWORD).status_code == 303
        for method, path in admin_routes(admin_app):
            if method == "GET":
                response = _send(client, method, path, game_id)
                assert response.status_code == 200, (path, response.text)
                assert response.headers["cache-control"] == "no-store"


def test_a_tampered_or_forged_cookie_is_refused(admin_app: FastAPI) -> None:
    with serve(admin_app) as client:
        game_id = new_game(client)[0]["game_id"]
        assert admin_login(client, PASSWORD).status_code == 303
        genuine = _cookie(client)
        payload, _, signature = genuine.partition(".")
        data = json.loads(base64.b64decode(payload))
        assert set(data["admin"]) == {"at", "key", "id"}

        # The same session with a later login time: the signature no longer matches.
        altered = {**data, "admin": {**data["admin"], "at": data["admin"]["at"] + 3600}}
        with_session_cookie(client, base64.b64encode(json.dumps(altered).encode()).decode()
                            + "." + signature)
        assert_all_refused(client, admin_app, game_id)

        # Signed with a key that is not the server's.
        with_session_cookie(client, signed_session(data, "not-the-secret"))
        assert_all_refused(client, admin_app, game_id)

        # Signed with the right key (say it leaked) but without the password's fingerprint.
        forged = {"admin": {"at": int(time.time()), "key": "0" * 64}}
        with_session_cookie(client, signed_session(forged))
        assert_all_refused(client, admin_app, game_id)

        with_session_cookie(client, genuine)
        assert client.get("/admin/api/games").status_code == 200


def test_an_expired_login_is_refused(admin_app: FastAPI) -> None:
    with serve(admin_app) as client:
        game_id = new_game(client)[0]["game_id"]
        assert admin_login(client, PASSWORD).status_code == 303
        admin = admin_app.state.admin
        hours = admin_app.state.settings.admin_session_hours
        admin.clock = lambda: time.time() + hours * 3600 - 60
        assert client.get("/admin/api/games").status_code == 200
        admin.clock = lambda: time.time() + hours * 3600 + 1
        assert_all_refused(client, admin_app, game_id)


def test_changing_the_password_ends_admin_logins(make_app: Callable[..., FastAPI]) -> None:
    before, after = make_app(admin_password=PASSWORD), make_app(admin_password="new one")
    with serve(before) as old_server, serve(after) as new_server:
        game_id = new_game(old_server)[0]["game_id"]
        assert admin_login(old_server, PASSWORD).status_code == 303
        with_session_cookie(new_server, _cookie(old_server))
        assert_all_refused(new_server, after, game_id)


def test_everything_is_closed_in_production_without_a_password(
        make_app: Callable[..., FastAPI]) -> None:
    app = make_app(environment="production", admin_password=None,
                   allowed_hosts="testserver")
    with serve(app) as client:
        game_id = new_game(client)[0]["game_id"]
        assert_all_refused(client, app, game_id, 503, "admin_disabled")
        page = client.get("/admin/login")
        assert page.status_code == 503
        assert "DUEL_ADMIN_PASSWORD" in page.text
        assert admin_login(client, "admin").status_code == 503
        assert_all_refused(client, app, game_id, 503, "admin_disabled")


def test_a_production_password_opens_the_pages(make_app: Callable[..., FastAPI]) -> None:
    app = make_app(environment="production", admin_password=PASSWORD,
                   allowed_hosts="testserver")
    with serve(app) as client:
        assert admin_login(client, "admin").status_code == 401  # no development default
        assert admin_login(client, PASSWORD).status_code == 303
        assert client.get("/admin/api/games").status_code == 200


def test_wrong_passwords_are_refused_then_throttled(admin_app: FastAPI) -> None:
    with serve(admin_app) as client:
        for _ in range(5):
            response = admin_login(client, "guess")
            assert response.status_code == 401
            assert "Wrong password." in response.text
        assert client.get("/admin/api/games").status_code == 401
        # Even the right password waits for the window to pass (a browser new to the
        # account; tests/api/test_limits.py has the rest of the throttle).
        throttled = admin_login(client, PASSWORD)
        assert throttled.status_code == 429
        assert "try again in" in throttled.text
        assert client.get("/admin/api/games").status_code == 401
        admin_app.state.wall.offset += timedelta(minutes=15)
        assert admin_login(client, PASSWORD).status_code == 303
        assert client.get("/admin/api/games").status_code == 200


def test_a_login_post_that_is_not_the_form_is_refused(admin_app: FastAPI) -> None:
    with serve(admin_app) as client:
        fields = {f"field{n}": "x" for n in range(11)}
        response = client.post("/admin/login", data={**fields, "password": PASSWORD},
                               follow_redirects=False)
        assert response.status_code == 400 and "not the login form" in response.text
        assert client.get("/admin/api/games").status_code == 401


def test_after_login_only_admin_pages_are_a_destination(admin_app: FastAPI) -> None:
    with serve(admin_app) as client:
        for target, landing in [("/admin/import", "/admin/import"),
                                ("https://evil.example/", "/admin"),
                                ("//evil.example/admin", "/admin"),
                                ("/admin/logout", "/admin")]:
            client.cookies.clear()
            response = client.post("/admin/login", data={"password": PASSWORD, "next": target},
                                   follow_redirects=False)
            assert response.headers["location"] == landing, target
        # A page asked for without a login comes back after it, query included.
        client.cookies.clear()
        asked = client.get("/admin?status=active&page=1", follow_redirects=True)
        assert asked.url.path == "/admin/login"
        assert 'value="/admin?status=active&amp;page=1"' in asked.text


def test_changes_take_json_bodies_only(admin_app: FastAPI) -> None:
    with serve(admin_app) as client:
        game_id = new_game(client)[0]["game_id"]
        assert admin_login(client, PASSWORD).status_code == 303
        # What a form on another site could send: refused, nothing done.
        response = client.post(f"/admin/api/games/{game_id}/abort",
                               data={"reason": "from a form"})
        assert response.status_code == 415
        assert response.json()["error"]["code"] == "json_required"
        response = client.post("/admin/api/import", content=b'{"format": "duel-game"}',
                               headers={"content-type": "text/plain"})
        assert response.status_code == 415
        assert client.get(f"/api/games/{game_id}").json()["status"] == "active"



def test_a_client_hanging_up_mid_body_is_a_line_not_a_traceback(
        make_app: Callable[..., FastAPI], caplog: pytest.LogCaptureFixture) -> None:
    """The login form's body is cut off by the client: no error is logged, nothing raised
    (the server has nobody to answer)."""
    parts = iter([{"type": "http.request", "body": b"password=ad", "more_body": True},
                  {"type": "http.disconnect"}])

    async def receive() -> dict[str, Any]:
        return next(parts)

    async def send(message: dict[str, Any]) -> None:
        pass

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/admin/login",
             "raw_path": b"/admin/login", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"testserver"),
                         (b"content-type", b"application/x-www-form-urlencoded"),
                         (b"content-length", b"100")],
             "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}
    app = make_app()
    # Connections an earlier test left to the collector are reset as they go, and log
    # their own errors (their event loop is closed): collected first, not in this window.
    gc.collect()
    with serve(app) as client, caplog.at_level(logging.INFO):
        assert client.portal is not None
        client.portal.call(app, scope, receive, send)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "client left during its request to /admin/login" in caplog.text
