"""Security headers on every answer (app/api/security.py): a policy under which no inline
script but the page's two nonce'd ones runs (its import map, and the listener that tells
when a module could not be fetched), no framing, no sniffing, HSTS with https.

Headers do not depend on the database: these tests run on SQLite alone."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.api.security import DATA_POLICY, DOCS_POLICY
from app.main import create_app
from tests.factories import SqliteTemplate, admin_login, new_game

PASSWORD = "headers-test-admin"
COMMON = {"x-content-type-options": "nosniff", "referrer-policy": "same-origin",
          "x-frame-options": "DENY", "cross-origin-opener-policy": "same-origin"}
NONCE = re.compile(r"'nonce-([A-Za-z0-9_-]{22})'")
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)([^>]*)>")


def strict_policy(nonce: str, sockets: str = "ws://testserver") -> str:
    """A page's policy; its sockets may go to the public URL, or without one to the
    address the page was opened on (the test client's)."""
    return (f"default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self'; "
            f"connect-src 'self' {sockets}; object-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'")


@pytest.fixture
def build(sqlite_template: SqliteTemplate, tmp_path: Path) -> Callable[..., FastAPI]:
    database = sqlite_template.copy(tmp_path)

    def build_(**overrides: object) -> FastAPI:
        app = create_app(database.settings(admin_password=PASSWORD, **overrides))

        async def crash() -> None:
            raise RuntimeError("unhandled")

        app.add_api_route("/crash", crash)
        return app

    return build_


def assert_protected(response: Any) -> str:
    """The headers every answer but a page's files carries: a page's policy's nonce, or ""
    for any other answer (which has the policy of data)."""
    where = f"{response.request.method} {response.request.url.path} ({response.status_code})"
    html = response.headers.get("content-type", "").startswith("text/html")
    for name, value in COMMON.items() if html else list(COMMON.items())[:1]:
        assert response.headers.get_list(name) == [value], (where, name)
    assert "strict-transport-security" not in response.headers, where
    policy = response.headers.get_list("content-security-policy")
    assert len(policy) == 1, where
    if not html:
        assert policy == [DATA_POLICY], where
        return ""
    nonce = NONCE.search(policy[0])
    assert nonce is not None, (where, policy)
    assert policy[0] == strict_policy(nonce[1]), where
    return nonce[1]


def assert_inline_scripts_carry(html: str, nonce: str) -> None:
    """Every inline script that would run (data blocks aside) has the answer's nonce; there
    are the two docs/security.md names, the import map first."""
    runs = [attributes for attributes in INLINE_SCRIPT.findall(html)
            if 'type="application/json"' not in attributes]
    assert len(runs) == 2 and 'type="importmap"' in runs[0], runs
    for attributes in runs:
        assert f'nonce="{nonce}"' in attributes, attributes


def test_every_kind_of_answer_carries_them(build: Callable[..., FastAPI]) -> None:
    with TestClient(build(), raise_server_exceptions=False) as client:
        answers = {
            "page": client.get("/"),
            "api": client.put("/api/me", json={"name": "Ann"}),
            "api 404": client.get("/api/games/nowhere"),
            "404": client.get("/no/such/page"),
            "405": client.delete("/"),
            "401": client.get("/admin/api/games"),
            "422": client.put("/api/me", json={}),
            "500": client.get("/crash"),
            "admin login": client.get("/admin/login"),
            "admin redirect": client.get("/admin", follow_redirects=False),
            "openapi": client.get("/openapi.json"),
            "health": client.get("/healthz"),
        }
        statuses = {name: response.status_code for name, response in answers.items()}
        assert statuses == {"page": 200, "api": 200, "api 404": 404, "404": 404, "405": 405,
                            "401": 401, "422": 422, "500": 500, "admin login": 200,
                            "admin redirect": 303, "openapi": 200, "health": 200}
        nonces = {name: assert_protected(response) for name, response in answers.items()}
        assert answers["500"].text == "Internal Server Error"
    pages = {name: nonce for name, nonce in nonces.items() if nonce}
    assert set(pages) == {"page", "admin login"}
    assert pages["page"] != pages["admin login"]  # each answer's own: guessed from no other
    for page, nonce in pages.items():
        assert_inline_scripts_carry(answers[page].text, nonce)
    assert "unsafe" not in answers["page"].headers["content-security-policy"]


def test_the_admin_pages_and_a_game_page(build: Callable[..., FastAPI]) -> None:
    with TestClient(build()) as client:
        game_id = new_game(client)[0]["game_id"]
        page = client.get(f"/games/{game_id}")
        assert_inline_scripts_carry(page.text, assert_protected(page))
        assert admin_login(client, PASSWORD).status_code == 303
        for path in ("/admin", f"/admin/games/{game_id}", "/admin/import"):
            admin = client.get(path)
            assert admin.status_code == 200, path
            assert_inline_scripts_carry(admin.text, assert_protected(admin))


async def _refused_connection(*_args: Any, **_kwargs: Any) -> Any:
    raise ConnectionRefusedError(111, "Connect call failed")


def test_the_unavailable_page(build: Callable[..., FastAPI],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    app = build()
    with TestClient(app) as client:
        monkeypatch.setattr(app.state.players, "get", _refused_connection)
        page = client.get("/")
        assert page.status_code == 503 and 'id="unavailable"' in page.text
        assert_inline_scripts_carry(page.text, assert_protected(page))


def test_the_pages_files_carry_nosniff_alone(build: Callable[..., FastAPI]) -> None:
    """A policy, framing and opener rules apply to documents: on a script, style sheet or
    icon they would be bytes for nothing on each of a first load's thirty-odd answers."""
    with TestClient(build(public_url="https://duel.example")) as client:
        home = client.get("/")
        files = re.findall(r'(?:href|src)="(/(?:static|vendor)/[^"]+)"', home.text)
        files += ["/static/js/api.js", "/vendor/preact/dist/preact.mjs",
                  "/static/no-such-file.js", "/vendor/preact/package.json"]
        for path in files:
            answer = client.get(path)
            assert answer.status_code in (200, 404), path
            assert answer.headers.get_list("x-content-type-options") == ["nosniff"], path
            for name in (*COMMON.keys() - {"x-content-type-options"},
                         "content-security-policy", "strict-transport-security"):
                assert name not in answer.headers, (path, name)


def test_hsts_and_secure_sockets_only_with_an_https_public_url(
        build: Callable[..., FastAPI]) -> None:
    with TestClient(build(public_url="https://duel.example")) as client:
        for answer in (client.get("/"), client.get("/api/catalog"), client.get("/nowhere")):
            assert answer.headers["strict-transport-security"] == "max-age=31536000"
        policy = client.get("/").headers["content-security-policy"]
        nonce = NONCE.search(policy)
        assert nonce is not None
        assert policy == strict_policy(nonce[1], "wss://duel.example")
    with TestClient(build(public_url="http://duel.example:8080")) as client:
        answer = client.get("/")
        assert "strict-transport-security" not in answer.headers
        assert "connect-src 'self' ws://duel.example:8080;" in (
            answer.headers["content-security-policy"])


def test_the_api_docs_have_a_policy_of_their_own(build: Callable[..., FastAPI]) -> None:
    """Swagger UI and ReDoc come from a CDN and run inline scripts: on their paths alone."""
    with TestClient(build()) as client:
        for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
            answer = client.get(path)
            assert answer.status_code == 200, path
            for name, value in COMMON.items():
                assert answer.headers[name] == value, (path, name)
            assert answer.headers.get_list("content-security-policy") == [DOCS_POLICY], path
        assert_protected(client.get("/docs/elsewhere"))
