"""What an operator sees (app/observability.py, docs/operations.md): Prometheus metrics at
``/metrics``, a request id on every answer and log line, logs as one JSON object a line.

Nothing here waits for time to pass: each figure is read after what it counts has been
answered (an ack, a welcome, a closed socket)."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.db.pubsub import InProcessPubSub, PostgresPubSub
from app.observability import Metrics, configure_logging, game_of, request_id_from
from app.services.notices import LOBBY_CHANNEL, PRESENCE_TOPIC

from ..factories import LobbyClient, ProtocolClient, new_game, player, serve

pytestmark = pytest.mark.one_database  # metrics and logs: no storage in them

TIMEOUT = 10.0
NAMES = ("duel_moves_committed_total", "duel_move_seconds", "duel_move_refusals_total",
         "duel_open_sockets", "duel_quick_match_waiting", "duel_notifications_received_total",
         "duel_listener_reconnects_total", "duel_http_requests_total",
         "duel_http_request_seconds")

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(client: TestClient) -> Samples:
    """Every sample ``/metrics`` shows, by name and labels."""
    response = client.get("/metrics")
    assert response.status_code == 200
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(response.text)
            for sample in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    """One sample's value (0 when it is not shown: a label value not seen yet)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def _seat(client: TestClient, credentials: dict[str, Any]) -> ProtocolClient:
    socket = ProtocolClient(client, credentials["game_id"], timeout=TIMEOUT)
    welcome = socket.join(credentials["seat"], credentials["token"])
    assert welcome["type"] == "welcome", welcome
    return socket


def _first_move(socket: ProtocolClient) -> dict[str, Any]:
    assert socket.view is not None
    action: dict[str, Any] = socket.view["legal_actions"][0]["action"]
    return action


def _log_lines(err: str) -> list[dict[str, Any]]:
    """The JSON log lines written to standard error (others, if any, left out)."""
    lines = []
    for line in err.splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def _probe(app: FastAPI) -> None:
    """Two routes that log, one on a game's path."""

    async def probe() -> dict[str, str]:
        logging.getLogger("app.probe").warning("probed %s", "here")
        try:
            raise ValueError("on purpose")
        except ValueError:
            logging.getLogger("app.probe").exception("it failed")
        return {}

    async def crash() -> None:
        raise RuntimeError("unhandled")

    app.add_api_route("/probe", probe)
    app.add_api_route("/api/games/{game_id}/probe", probe)
    app.add_api_route("/crash", crash)


# ---------------------------------------------------------------------- metrics

def test_metrics_are_served_as_prometheus_text(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        response = client.get("/metrics", headers={"Accept-Encoding": "identity"})
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
        assert "content-encoding" not in response.headers
        for name in NAMES:
            assert f"# TYPE {name} " in response.text, name
        assert "_created" not in response.text, "no creation-time series beside counters"
        # As a Prometheus server asks for it: gzip, the same text.
        zipped = client.get("/metrics", headers={"Accept-Encoding": "gzip"})
        assert zipped.headers["content-type"] == response.headers["content-type"]
        assert "# TYPE duel_open_sockets gauge" in zipped.text
        assert "/metrics" not in client.get("/openapi.json").json()["paths"]


def test_each_application_counts_apart(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as first, serve(make_app()) as second:
        first.get("/healthz")
        first.get("/healthz")
        second.get("/healthz")
        assert value(scrape(first), "duel_http_requests_total", method="GET",
                     route="/healthz", status="200") == 2
        assert value(scrape(second), "duel_http_requests_total", method="GET",
                     route="/healthz", status="200") == 1


def test_a_committed_move_is_counted_and_timed(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        first, _ = new_game(client, first_player="creator")
        socket = _seat(client, first)
        before = scrape(client)
        move = _first_move(socket)
        ack = socket.act(move)
        assert ack["type"] == "ack" and not ack["duplicate"], ack
        after = scrape(client)
        assert value(after, "duel_moves_committed_total") == \
            value(before, "duel_moves_committed_total") + 1
        assert value(after, "duel_move_seconds_count") == \
            value(before, "duel_move_seconds_count") + 1
        assert value(after, "duel_move_seconds_sum") > value(before, "duel_move_seconds_sum")
        # A resend commits nothing: acked again, counted no more.
        resent = socket.act(move, version=0, client_id=ack["client_id"])
        assert resent["duplicate"], resent
        assert value(scrape(client), "duel_moves_committed_total") == \
            value(after, "duel_moves_committed_total")


def test_a_refused_move_counts_under_its_code(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        first, _ = new_game(client, first_player="creator")
        socket = _seat(client, first)
        refused = socket.act(_first_move(socket), version=7)
        assert refused["code"] == "stale_version", refused
        samples = scrape(client)
        assert value(samples, "duel_move_refusals_total", code="stale_version") == 1
        assert value(samples, "duel_moves_committed_total") == 0
        assert value(samples, "duel_move_seconds_count") == 0


def test_open_sockets_are_read_when_scraped(make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        first, _ = new_game(client)
        assert value(scrape(client), "duel_open_sockets", kind="game") == 0
        with ProtocolClient(client, first["game_id"], timeout=TIMEOUT) as spectator:
            assert spectator.join()["type"] == "welcome"
            assert value(scrape(client), "duel_open_sockets", kind="game") == 1
        assert value(scrape(client), "duel_open_sockets", kind="game") == 0

        player(client, "Ann")
        with LobbyClient(client, timeout=TIMEOUT) as lobby:
            assert lobby.receive()["type"] == "lobby"
            samples = scrape(client)
            assert value(samples, "duel_open_sockets", kind="lobby") == 1
            assert value(samples, "duel_quick_match_waiting") == 0
            lobby.send({"type": "play"})
            assert lobby.receive_until("queue")["state"] == "waiting"
            assert value(scrape(client), "duel_quick_match_waiting") == 1
        samples = scrape(client)
        assert value(samples, "duel_open_sockets", kind="lobby") == 0
        assert value(samples, "duel_quick_match_waiting") == 0, "leaving the page leaves"


def test_http_requests_are_counted_by_route_template(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        first, _ = new_game(client)
        client.get(f"/api/games/{first['game_id']}")
        client.get("/api/games/no-such-game")
        client.get("/no/such/page")
        client.get("/static/no-such-file.js")
        samples = scrape(client)
        route = "/api/games/{game_id}"
        assert value(samples, "duel_http_requests_total", method="GET", route=route,
                     status="200") == 1
        assert value(samples, "duel_http_requests_total", method="GET", route=route,
                     status="404") == 1
        assert value(samples, "duel_http_requests_total", method="POST", route="/api/games",
                     status="201") == 1
        assert value(samples, "duel_http_requests_total", method="GET", route="unmatched",
                     status="404") == 1
        assert value(samples, "duel_http_requests_total", method="GET",
                     route="/static/{path}", status="404") == 1
        assert value(samples, "duel_http_request_seconds_count", method="GET",
                     route=route) == 2


async def test_notifications_are_counted_by_topic_kind() -> None:
    metrics = Metrics()
    pubsub = InProcessPubSub()
    metrics.count_notifications(pubsub)
    for topic in ("Z99b6dCD7gnqnA5D", "Z99b6dCD7gnqnA5D", LOBBY_CHANNEL, PRESENCE_TOPIC):
        await pubsub.publish(topic, {})
    sample = metrics.registry.get_sample_value
    assert sample("duel_notifications_received_total", {"kind": "game"}) == 2
    assert sample("duel_notifications_received_total", {"kind": "lobby"}) == 1
    assert sample("duel_notifications_received_total", {"kind": "presence"}) == 1


async def test_listener_reconnects_are_read_from_the_listener() -> None:
    engine = create_async_engine("postgresql+asyncpg://nobody@127.0.0.1/none")
    try:
        metrics = Metrics()
        assert metrics.registry.get_sample_value("duel_listener_reconnects_total") == 0
        pubsub = PostgresPubSub(engine, None)  # never started: nothing connects
        metrics.live.pubsub = pubsub
        pubsub.reconnects = 3
        assert metrics.registry.get_sample_value("duel_listener_reconnects_total") == 3
    finally:
        await engine.dispose()


# ---------------------------------------------------------------------- request ids

def test_a_sane_request_id_is_echoed_and_another_replaced(
        make_app: Callable[..., FastAPI]) -> None:
    with serve(make_app()) as client:
        sane = "req-1.A_b"
        for good in (sane, "x" * 64):
            assert client.get("/healthz", headers={"X-Request-ID": good}).headers[
                "X-Request-ID"] == good
        for bad in (b"has space", b"x" * 65, "ünï".encode("latin-1"), b"a\\b", b"",
                    b'{"event": "forged"}'):
            fresh = client.get("/healthz", headers={b"X-Request-ID": bad}).headers[
                "X-Request-ID"]
            assert fresh.encode() != bad
            assert request_id_from([(b"x-request-id", fresh.encode())]) == fresh, \
                "a fresh id is itself sane"
        one, two = (client.get("/healthz").headers["X-Request-ID"] for _ in range(2))
        assert one != two, "each request has its own"
        assert client.get("/no/such/page", headers={"X-Request-ID": sane}).headers[
            "X-Request-ID"] == sane, "refusals carry it too"
        with client.websocket_connect("/ws/lobby", headers={"X-Request-ID": "ws-7"}) as ws:
            assert ws.extra_headers is not None
            assert (b"x-request-id", b"ws-7") in ws.extra_headers


def test_game_ids_are_read_from_game_paths() -> None:
    assert game_of("/api/games/Z99b6dCD7gnqnA5D") == "Z99b6dCD7gnqnA5D"
    assert game_of("/api/games/Z99b6dCD7gnqnA5D/view") == "Z99b6dCD7gnqnA5D"
    assert game_of("/ws/games/abc_-1") == "abc_-1"
    assert game_of("/api/games") is None
    assert game_of("/api/games/") is None
    assert game_of("/api/games/has space") is None
    assert game_of("/static/api/games/x") is None


# ---------------------------------------------------------------------- logs

def test_log_lines_are_json_with_the_request_id(make_app: Callable[..., FastAPI],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    app = make_app()
    _probe(app)
    with serve(app) as client:
        capsys.readouterr()
        client.get("/probe", headers={"X-Request-ID": "probe-1"})
        client.get("/api/games/Z99b6dCD7gnqnA5D/probe", headers={"X-Request-ID": "probe-2"})
    lines = [line for line in _log_lines(capsys.readouterr().err)
             if line["logger"] == "app.probe"]
    assert [(line["event"], line["request_id"]) for line in lines] == [
        ("probed here", "probe-1"), ("it failed", "probe-1"),
        ("probed here", "probe-2"), ("it failed", "probe-2")]
    warning, failure = lines[0], lines[1]
    assert warning["level"] == "warning" and "exception" not in warning
    assert warning["timestamp"].endswith("Z") and "T" in warning["timestamp"]
    assert failure["level"] == "error"
    assert "ValueError: on purpose" in failure["exception"]
    assert "game_id" not in lines[0]
    assert lines[2]["game_id"] == "Z99b6dCD7gnqnA5D"


def test_an_unhandled_error_is_logged_with_its_request(
        make_app: Callable[..., FastAPI], capsys: pytest.CaptureFixture[str]) -> None:
    app = make_app()
    _probe(app)
    with TestClient(app, raise_server_exceptions=False) as client:
        capsys.readouterr()
        assert client.get("/crash", headers={"X-Request-ID": "crash-1"}).status_code == 500
        failed = [line for line in _log_lines(capsys.readouterr().err)
                  if line["event"] == "request failed"]
        assert value(scrape(client), "duel_http_requests_total", method="GET",
                     route="/crash", status="500") == 1
    assert len(failed) == 1
    assert failed[0]["request_id"] == "crash-1" and failed[0]["path"] == "/crash"
    assert "RuntimeError: unhandled" in failed[0]["exception"]


def test_a_committed_move_is_logged_at_debug(make_app: Callable[..., FastAPI],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    with serve(make_app(log_level="DEBUG")) as client:
        first, _ = new_game(client, first_player="creator")
        socket = _seat(client, first)
        capsys.readouterr()
        ack = socket.act(_first_move(socket))
        assert ack["type"] == "ack"
        lines = [line for line in _log_lines(capsys.readouterr().err)
                 if line["event"] == "move committed"]
    assert len(lines) == 1
    line = lines[0]
    assert line["level"] == "debug" and line["logger"] == "app.observability"
    assert (line["game_id"], line["version"], line["seat"]) == (first["game_id"], 1, 0)
    assert line["seconds"] >= 0 and line["request_id"], "bound for the socket's life"


def test_moves_are_not_logged_at_info(make_app: Callable[..., FastAPI],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    with serve(make_app()) as client:
        first, _ = new_game(client, first_player="creator")
        socket = _seat(client, first)
        assert socket.act(_first_move(socket))["type"] == "ack"
    assert "move committed" not in capsys.readouterr().err


def test_text_logs_are_for_people(make_app: Callable[..., FastAPI],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    app = make_app(log_format="text")
    _probe(app)
    with serve(app) as client:
        capsys.readouterr()
        client.get("/probe", headers={"X-Request-ID": "probe-3"})
    err = capsys.readouterr().err
    probed = next(line for line in err.splitlines() if "probed here" in line)
    assert not probed.startswith("{") and "request_id=probe-3" in probed
    assert "ValueError: on purpose" in err


def test_logging_is_configured_once_and_still_propagates(
        caplog: pytest.LogCaptureFixture) -> None:
    """Configured again, the handler is replaced, not added to; records still reach the
    root's other handlers (pytest's caplog among them)."""
    stream = io.StringIO()
    root = logging.getLogger()
    configure_logging(Settings(), stream=io.StringIO())
    handlers = len(root.handlers)
    configure_logging(Settings(), stream=stream)
    try:
        assert len(root.handlers) == handlers
        logging.getLogger("app.somewhere").warning("seen %d", 1)
        (line,) = [json.loads(text) for text in stream.getvalue().splitlines()]
        assert line["event"] == "seen 1" and line["logger"] == "app.somewhere"
        assert [(r.name, r.getMessage()) for r in caplog.records] == [
            ("app.somewhere", "seen 1")]
    finally:
        configure_logging(Settings())


def test_the_pages_own_files_go_without_a_request_id(make_app: Callable[..., FastAPI]) -> None:
    """The game's first load fetches some 15 files: an id on each would cost most of a
    kilobyte of a 60 KB budget, for files nobody correlates."""
    with TestClient(make_app()) as client:
        page = client.get("/")
        assert "x-request-id" in page.headers
        own_file = re.search(r'(?:src|href)="(/static/[^"]+)"', page.text)
        assert own_file is not None, "the page names its files"
        asset = client.get(own_file.group(1))
        assert asset.status_code == 200 and "x-request-id" not in asset.headers
