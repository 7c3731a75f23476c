"""Fuzzing the HTTP API from its own OpenAPI description (``/openapi.json``) with
schemathesis: for every operation, requests that follow the description (positive) and
requests that break it (negative), each answer checked against it:

- no 5xx, and nothing logged at ERROR (an unhandled exception is logged so);
- every status is one the operation documents, with the documented media type and a body
  that matches its schema (so every refusal is the one ``RefusalBody``);
- a request that breaks the description is refused (4xx), not served.

Schemathesis makes the requests; the test's own ``TestClient`` sends them, so that the
application runs its startup and its database on the test's event loop (schemathesis's
ASGI transport would run them on a loop of its own, and keep the application running for
the rest of the process). One application serves every example of a test.

The admin API (``/admin/api/...``) is not in the OpenAPI (``include_in_schema=False``); it is
fuzzed here too, logged in, with hypothesis alone: any query, path and body it may be sent
gets an answer below 500 in the one refusal shape with a registered code.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy
from schemathesis import Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.errors import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from sqlalchemy import text

from tests.factories import (
    Database,
    admin_login,
    assert_worded,
    create_game,
    new_game,
    serve,
)

# Property tests: `make test-long` runs them again, searching for new examples.
pytestmark = pytest.mark.hypothesis
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance, negative_data_rejection]
EXAMPLES = 15
"""Per operation and mode, on each database (in negative mode, the operations with a body)."""
ADMIN_EXAMPLES = 50
"""Requests to the admin API, on each database."""
API_FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                    # Each example is a request to the server: its time says nothing.
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno >= logging.ERROR]


def send(client: TestClient, case: Case) -> Any:
    """The request schemathesis made of ``case``, sent by ``client`` (its cookies, its
    application): the response."""
    request = case.as_transport_kwargs(base_url=str(client.base_url))
    body = request.pop("data", None)
    if isinstance(body, dict):  # a form
        request["data"] = body
    elif body is not None:  # bytes or text, sent as they are
        request["content"] = body
    if not request.get("cookies"):  # none of its own: the client's are sent
        request.pop("cookies", None)
    return client.request(**request)


# ---------------------------------------------------------------------- the OpenAPI


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
                         ids=lambda mode: mode.value)
def test_the_api_answers_as_its_openapi_says(make_app: Callable[..., FastAPI],
                                             caplog: pytest.LogCaptureFixture,
                                             mode: GenerationMode) -> None:
    with serve(make_app()) as client:
        waiting = create_game(client)
        playing, _ = new_game(client)
        app = client.app
        assert isinstance(app, FastAPI)
        schema = schemathesis.openapi.from_dict(app.openapi())
        failures: list[str] = []
        for result in schema.get_all_operations():
            operation = result.ok()
            if mode is GenerationMode.NEGATIVE and not (operation.body or operation.query):
                # Its parameters are free strings (any game id, any token): nothing in them
                # can be wrong, and schemathesis would search long to be sure of it.
                continue
            strategies = [operation.as_strategy(mode)]
            if mode is GenerationMode.POSITIVE and "{game_id}" in operation.path:
                # Ids of games that are there, one waiting and one in play, as often as not.
                strategies += [operation.as_strategy(mode, path_parameters={"game_id": game})
                               for game in (waiting["game_id"], playing["game_id"])]
                if operation.path.endswith("/view"):
                    strategies.append(operation.as_strategy(
                        mode, path_parameters={"game_id": playing["game_id"]},
                        headers={"authorization": f"Bearer {playing['token']}"}))

            @API_FUZZ
            @given(st.one_of(strategies))
            def fuzz(case: Case) -> None:
                note(f"{case.operation.label} ({mode.value})")
                response = send(client, case)
                case.validate_response(response, checks=CHECKS)
                assert not errors_logged(caplog), errors_logged(caplog)

            try:  # every operation's failure is told, not only the first one's
                fuzz()
            except (AssertionError, FailureGroup) as failure:
                failures.append(f"{operation.label}: {failure}")
        assert not failures, "\n\n".join(failures)


def test_a_server_not_ready_answers_as_its_openapi_says(make_app: Callable[..., FastAPI],
                                                       database: Database) -> None:
    """``GET /readyz``'s 503, out of the fuzz's reach (its database is there and migrated),
    checked against the description as the fuzz checks every answer."""
    with serve(make_app()) as client:
        app = client.app
        assert isinstance(app, FastAPI) and client.portal is not None
        schema = schemathesis.openapi.from_dict(app.openapi())
        client.portal.call(database.write,
                           text("UPDATE alembic_version SET version_num = 'elsewhere'"))
        response = client.get("/readyz")
        assert response.status_code == 503, response.text
        schema["/readyz"]["GET"].Case().validate_response(  # a 503 is the answer sought
            response, checks=[check for check in CHECKS if check is not not_a_server_error])


# ---------------------------------------------------------------------- the admin API

_TEXT = st.text(max_size=30) | st.sampled_from(["", "0", "-1", "2026-13-40", "9" * 30,
                                                 "\x00", "%", "../", "%00"])


def _containers(inner: SearchStrategy[Any]) -> SearchStrategy[Any]:
    return st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3)


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | _TEXT
                     | st.just("\ud800"),  # a lone surrogate: JSON escapes it
                     _containers, max_leaves=8)
_QUERY = st.dictionaries(st.sampled_from(["status", "player", "since", "until", "page",
                                          "per_page", "game_id"]) | _TEXT, _TEXT, max_size=4)


def _admin_requests(game_id: str) -> SearchStrategy[dict[str, Any]]:
    """Requests to the admin API: its routes with any query, ids and positions, and any
    body (JSON or not) where one is read."""
    ids = st.sampled_from([game_id]) | _TEXT.filter(lambda s: s not in ("", ".", "..")) \
        | st.just("\ud800")  # percent-encoded as no UTF-8 can be: %ED%A0%80
    seqs = st.integers() | st.sampled_from(["x", "1.5", "9" * 30])

    def path(template: str) -> SearchStrategy[str]:
        return st.builds(lambda game, seq: template.format(
            game=quote(game, safe="", errors="surrogatepass"), seq=quote(str(seq), safe="")),
            ids, seqs)

    bodies = st.one_of(  # (content type, body)
        _JSON.map(lambda value: ("application/json", json.dumps(value).encode())),
        _JSON.map(lambda reason: ("application/json", json.dumps({"reason": reason}).encode())),
        st.tuples(st.sampled_from(["application/json", "text/plain", ""]),
                  st.binary(max_size=40)))
    gets = st.builds(lambda url, query: {"method": "GET", "url": url, "params": query},
                     st.one_of(st.just("/admin/api/games"), st.just("/admin/api/actions"),
                               path("/admin/api/games/{game}"),
                               path("/admin/api/games/{game}/positions/{seq}"),
                               path("/admin/api/games/{game}/export")), _QUERY)
    posts = st.builds(
        lambda url, body: {"method": "POST", "url": url, "content": body[1],
                           "headers": {"content-type": body[0]} if body[0] else {}},
        path("/admin/api/games/{game}/abort") | st.just("/admin/api/import"), bodies)
    return gets | posts


def test_the_admin_api_refuses_in_one_shape(make_app: Callable[..., FastAPI],
                                            caplog: pytest.LogCaptureFixture) -> None:
    """Logged in as the admin (tests/api/test_admin.py logs in so): no request gets a 5xx
    or logs an error, and every refusal is ``{"error": {...}}`` with a registered code."""
    with serve(make_app(admin_password="secret")) as client:
        assert admin_login(client, "secret").status_code == 303
        game_id = new_game(client)[0]["game_id"]

        @settings(API_FUZZ, max_examples=ADMIN_EXAMPLES)
        @given(_admin_requests(game_id))
        def fuzz(request: dict[str, Any]) -> None:
            response = client.request(**request)
            assert response.status_code < 500, (request, response.status_code, response.text)
            if response.status_code >= 400:
                body = response.json()
                assert set(body) == {"error"}, body
                assert_worded(body["error"])
            assert not errors_logged(caplog), (request, errors_logged(caplog))

        fuzz()
