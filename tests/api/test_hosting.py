"""Hosting anywhere: links from the address a page was opened on when no public URL is set,
the host checked in production, and HEAD answered wherever GET is. On SQLite alone: no
storage in them."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.api.test_admin_auth import _walk as walk_routes

pytestmark = pytest.mark.one_database  # hosts, links and HEAD: no storage in them

SITES = ["http://127.0.0.1:9000", "http://192.168.1.7:8000", "http://duel.lan"]


@pytest.mark.parametrize("site", SITES)
def test_without_a_public_url_links_name_the_address_the_page_was_opened_on(
        make_app: Callable[..., FastAPI], site: str) -> None:
    with TestClient(make_app(), base_url=site) as client:
        game = client.post("/api/games", json={}).json()
        game_id = game["game_id"]
        sockets = site.replace("http", "ws", 1)
        assert game["invite_url"] == f"{site}/join/{game_id}#code={game['invite_code']}"
        assert game["socket_url"] == f"{sockets}/ws/games/{game_id}"
        # The link opens its page at that address, and its code seats the friend.
        link = urlsplit(game["invite_url"])
        page = client.get(link.path)
        assert page.status_code == 200 and f'data-game-id="{game_id}"' in page.text
        code = parse_qs(link.fragment)["code"][0]
        joined = client.post(f"/api/games/{game_id}/join", json={"invite_code": code})
        assert joined.status_code == 200, joined.text
        assert joined.json()["socket_url"] == game["socket_url"]


def test_a_public_url_names_the_site_whatever_address_was_asked(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app(public_url="https://duel.example"),
                    base_url="http://10.0.0.5:8000") as client:
        game = client.post("/api/games", json={}).json()
        assert game["invite_url"].startswith("https://duel.example/join/")


def test_a_page_s_sockets_may_go_to_where_it_was_opened(
        make_app: Callable[..., FastAPI]) -> None:
    """connect-src names the page's own socket origin (CSP3 has 'self' cover it; older
    browsers do not), and nothing that is not a plain host."""
    with TestClient(make_app(), base_url="http://192.168.1.7:9000") as client:
        policy = client.get("/").headers["content-security-policy"]
        assert "connect-src 'self' ws://192.168.1.7:9000;" in policy
        odd = client.get("/", headers={"host": "a;b"}).headers["content-security-policy"]
        assert "connect-src 'self';" in odd


PRODUCTION = {"environment": "production", "allowed_hosts": "duel.example, *.duel.example"}


@pytest.mark.parametrize(("host", "served"), [
    ("duel.example", True), ("www.duel.example:8443", True),
    # A health check or scraper on the machine itself.
    ("127.0.0.1:8000", True), ("localhost", True),
    ("evil.example", False), ("duel.example.evil.example", False), ("", False),
])
def test_production_answers_only_its_own_hosts(
        make_app: Callable[..., FastAPI], host: str, served: bool) -> None:
    with TestClient(make_app(**PRODUCTION)) as client:
        for path in ("/", "/api/me"):
            answer = client.get(path, headers={"host": host})
            if served:
                assert answer.status_code in (200, 401), (path, answer.text)
            else:
                assert answer.status_code == 400, path
                assert answer.text == "Invalid host header"


@pytest.mark.parametrize("host", ["app-1:8000", "10.0.3.7:8000", "evil.example", ""])
def test_probes_and_scrapers_are_answered_whatever_host_they_name(
        make_app: Callable[..., FastAPI], host: str) -> None:
    """Prometheus scrapes a replica by its container name, a Kubernetes probe by the pod's
    address: what they read builds no link, so no host is refused there."""
    with TestClient(make_app(**PRODUCTION)) as client:
        for path in ("/healthz", "/readyz", "/metrics"):
            answer = client.get(path, headers={"host": host})
            assert answer.status_code == 200, (path, answer.text)
        assert client.get("/", headers={"host": host}).status_code == 400


def test_production_links_name_the_allowed_host_asked(
        make_app: Callable[..., FastAPI]) -> None:
    with TestClient(make_app(**PRODUCTION), base_url="http://play.duel.example") as client:
        game = client.post("/api/games", json={}).json()
        assert game["invite_url"].startswith("http://play.duel.example/join/")


def _get_paths(app: FastAPI) -> list[str]:
    """Every GET route without a path parameter."""
    return sorted({path for path, methods in walk_routes(app.routes)
                   if "GET" in methods and "{" not in path})


def test_head_is_answered_wherever_get_is(make_app: Callable[..., FastAPI]) -> None:
    """Uptime checkers send HEAD: the same status and headers as GET, no body."""
    app = make_app()
    with TestClient(app) as client:
        game = client.post("/api/games", json={}).json()
        home = client.get("/")
        files = [path for path in ("/static/js/lobby.js", "/static/css/site.css",
                                   "/vendor/preact/dist/preact.mjs")
                 if client.get(path).status_code == 200]
        assert files, "no static file found"
        paths = [*_get_paths(app), f"/api/games/{game['game_id']}",
                 f"/join/{game['game_id']}", f"/games/{game['game_id']}", *files,
                 "/no-such-page", "/static/no-such-file.js"]
        assert "/" in paths and "/healthz" in paths
        checked = 0
        for path in paths:
            got = client.get(path, headers={"accept-encoding": "identity"})
            head = client.head(path, headers={"accept-encoding": "identity"})
            assert head.status_code == got.status_code, path
            assert head.content == b"", path
            assert head.headers.get("content-type") == got.headers.get("content-type"), path
            if path in files:  # the same bytes each time (a page's nonce, a count, differ)
                assert head.headers["content-length"] == got.headers["content-length"], path
            checked += got.status_code == 200
        assert checked >= 10
        assert home.status_code == 200
        # Where GET is not, neither is HEAD.
        assert client.head("/api/games/x/join").status_code == 405
