"""Fuzzing every address the server answers with hypothesis: each route's path parameters
(a game id, a position, a username, a language), the static files (``/static``, its
folders, ``/vendor``) and the query, filled with NUL and other control characters, names
far over any length, multi-byte and astral characters, lone surrogates, dots and slashes:

- no answer is a 5xx, and nothing is logged at ERROR (an unhandled exception, a storage
  failure: each is logged so, with its traceback);
- every refusal in JSON is the one ``{"error": {...}}`` shape with a registered code.

The schema-driven fuzz (test_openapi_fuzz.py) leaves the paths' parameters free strings and
never asks for a file; this one is about the addresses themselves.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from tests.factories import admin_login, assert_worded, new_game, serve

# Property tests: `make test-long` runs them again, searching for new examples.
pytestmark = pytest.mark.hypothesis
EXAMPLES = 400
"""Requests per database."""
FILE_ROUTES = ["/static/{path}", "/static/js/{path}", "/static/css/{path}",
               "/static/js/words/{path}", "/static/{path}/", "/vendor/{path}",
               "/vendor/preact/{path}"]
"""The files' addresses (mounts, which the router lists as one prefix)."""
SPECIAL = ["", ".", "..", "js", "js/", "css", "words", "%", "%00", "%2F", "%2e%2e", "\x00",
           "a\x00b", "\x01", "\x7f", "\n", "\ud800", "\udfff", "\ufeff", "\u202e",
           "\U0001f3db", "game.js", "js/game.js", "../app/main.py", "index.html", "~",
           "preact/dist/preact.mjs", "CON", "a" * 255, "a" * 256, "é" * 127, "é" * 128]


def _segments() -> SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(SPECIAL),
        st.text(st.characters(codec=None, exclude_categories=()), max_size=30),
        st.integers(200, 320).map(lambda n: "x" * n),  # about the file system's 255 bytes
        st.integers(60, 150).map(lambda n: "€" * n),  # three bytes each
        st.integers(1000, 2600).map(lambda n: "y" * n),  # past the whole path's limit
        st.lists(st.sampled_from(["a", "..", ".", "", "js", "\x00"]), min_size=2, max_size=6)
        .map("/".join),
    )


def _encoded(segment: str, keep_slashes: bool) -> str:
    return quote(segment, safe="/" if keep_slashes else "", errors="surrogatepass")


def _routes(app: FastAPI) -> list[tuple[str, list[str]]]:
    """Every HTTP route's path template with its methods, and the files' addresses."""
    routes = [(route.path_format, sorted(route.methods))
              for route in iter_route_contexts(app.router.routes)
              if route.methods and route.path_format]
    return routes + [(path, ["GET"]) for path in FILE_ROUTES]


def _requests(routes: list[tuple[str, list[str]]], game_id: str
              ) -> SearchStrategy[dict[str, Any]]:
    def build(route: tuple[str, list[str]], method_index: int, fills: list[str],
              slashes: bool, query: str | None) -> dict[str, Any]:
        template, methods = route
        path, left = template, iter(fills)
        while "{" in path:
            start, end = path.index("{"), path.index("}")
            path = path[:start] + _encoded(next(left), slashes) + path[end + 1:]
        method = methods[method_index % len(methods)]
        request: dict[str, Any] = {"method": method, "url": path}
        if query is not None:
            request["url"] += "?" + _encoded(query, keep_slashes=True).replace("%3D", "=")
        if method in ("POST", "PUT", "PATCH"):
            request["json"] = {}
        return request

    fills = st.lists(_segments() | st.just(game_id), min_size=3, max_size=3)
    queries = st.none() | st.builds(lambda key, value: f"{key}={value}",
                                    st.sampled_from(["v", "next", "page", "player", "lang"]),
                                    _segments())
    return st.builds(build, st.sampled_from(routes), st.integers(0, 5), fills, st.booleans(),
                     queries)


def test_no_address_gets_a_5xx(make_app: Callable[..., FastAPI],
                               caplog: pytest.LogCaptureFixture) -> None:
    with serve(make_app(admin_password="secret")) as client:
        assert admin_login(client, "secret").status_code == 303  # the admin's routes too
        game_id = new_game(client)[0]["game_id"]
        app = client.app
        assert isinstance(app, FastAPI)

        @settings(max_examples=EXAMPLES, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                         HealthCheck.large_base_example])
        @given(_requests(_routes(app), game_id))
        def fuzz(request: dict[str, Any]) -> None:
            note(f"{request['method']} {request['url'][:300]}")
            response = client.request(**request, follow_redirects=False)
            assert response.status_code < 500, (response.status_code, response.text[:500])
            if response.status_code >= 400 and \
                    response.headers.get("content-type", "").startswith("application/json"):
                body = response.json()
                assert set(body) == {"error"}, body
                assert_worded(body["error"])
            errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
            assert not errors, errors

        fuzz()
