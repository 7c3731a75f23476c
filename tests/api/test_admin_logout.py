"""Logging out of the admin pages ends the login on the server: it is recorded as ended
(``ended_session``), so every copy of the cookie stops opening them. On both databases,
since the record is stored."""

from __future__ import annotations

from fastapi import FastAPI

from tests.api.test_admin_auth import PASSWORD, _cookie, admin_app, assert_all_refused
from tests.factories import admin_login, new_game, serve, with_session_cookie

__all__ = ["admin_app"]  # the fixture, used by name


def test_logging_out_ends_the_login_and_keeps_the_player(admin_app: FastAPI) -> None:
    with serve(admin_app) as client:
        game_id = new_game(client)[0]["game_id"]
        me = client.put("/api/me", json={"name": "Ann"}).json()
        assert admin_login(client, PASSWORD).status_code == 303
        assert client.get("/admin/api/games").status_code == 200
        response = client.post("/admin/logout", follow_redirects=False)
        assert response.status_code == 303
        assert response.headers["location"] == "/admin/login"
        assert_all_refused(client, admin_app, game_id)
        assert client.get("/api/me").json() == me


def test_logging_out_ends_every_copy_of_the_login(admin_app: FastAPI) -> None:
    """A copy of the admin's cookie (another tab's, a stolen one) no longer opens the
    admin pages once the login is logged out of with any copy; a new login works."""
    with serve(admin_app) as client:
        game_id = new_game(client)[0]["game_id"]
        assert admin_login(client, PASSWORD).status_code == 303
        copy = _cookie(client)
        assert client.post("/admin/logout", follow_redirects=False).status_code == 303
        with_session_cookie(client, copy)  # the copy, presented after the logout
        assert_all_refused(client, admin_app, game_id)
        assert client.get("/admin", follow_redirects=False).status_code == 303
        assert admin_login(client, PASSWORD).status_code == 303
        assert client.get("/admin/api/games").status_code == 200
