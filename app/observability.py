"""What an operator sees of a running server: Prometheus metrics and JSON logs.

- :class:`Metrics`: one ``CollectorRegistry`` per application (``app.state.metrics``,
  served at ``GET /metrics``), so several applications in one process count apart.
  Counters and histograms are updated as things happen; the open sockets, the quick-match
  queue and the listener's reconnects are read when scraped (:class:`_LiveCollector`).
- :func:`instrument_submit`: times and counts the moves of a :class:`GameService` from
  outside it, by wrapping its ``submit``.
- :class:`RequestContext`: a pure ASGI middleware binding a ``request_id`` (and the
  ``game_id`` of a game's path) to every log line of a request or a WebSocket, echoing
  the id in ``X-Request-ID``, and counting and timing HTTP requests by route template.
- :func:`configure_logging`: the standard library's log records (every
  ``logging.getLogger(__name__)``) and structlog's, one JSON object per line, or text.

Operations guide: ``docs/operations.md``.
"""

from __future__ import annotations

import logging
import re
import sys
import time
import uuid
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

import structlog
from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4, generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings
from app.db.pubsub import PostgresPubSub, PubSub
from app.realtime.hub import Hub
from app.realtime.lobby import LobbyHub, QuickMatch
from app.services.errors import STORAGE_ERRORS
from app.services.games import Accepted, GameService, ServiceError
from app.services.notices import LOBBY_CHANNEL, PRESENCE_TOPIC

log = structlog.stdlib.get_logger(__name__)

METRICS_CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
"""The classic text format: every Prometheus version and compatible scraper reads it
(our metric names need none of format 1.0.0's quoting)."""
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
"""Seconds: a move takes a few milliseconds; a second is already far too long."""
HTTP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""HTTP methods counted by name; any other is counted as ``other`` (labels stay few)."""
UNMATCHED = "unmatched"
"""The route label of a request no route matched (any path a scanner tries)."""
TOPIC_KINDS = ("game", "lobby", "presence")

# No ``*_created`` series beside each counter and histogram (the library's default, for
# OpenMetrics): they would double what each scrape sends and Prometheus stores.
disable_created_metrics()  # type: ignore[no-untyped-call]  # unannotated upstream


class Metrics:
    """An application's metrics (see the module's doc; names in ``docs/operations.md``)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.moves = Counter("duel_moves_committed", "Moves committed by this process.",
                             registry=self.registry)
        self.move_seconds = Histogram(
            "duel_move_seconds", "Time to submit a move that was committed (seconds).",
            buckets=MOVE_BUCKETS, registry=self.registry)
        self.refusals = Counter("duel_move_refusals", "Moves refused, by refusal code.",
                                ["code"], registry=self.registry)
        self.notifications = Counter(
            "duel_notifications_received",
            "Messages heard from the pub/sub (PostgreSQL notifications, or this process's "
            "own with SQLite), by topic kind.", ["kind"], registry=self.registry)
        for kind in TOPIC_KINDS:
            self.notifications.labels(kind=kind)  # shown at 0 before the first message
        self.http_requests = Counter(
            "duel_http_requests", "HTTP requests answered, by route template and status.",
            ["method", "route", "status"], registry=self.registry)
        self.http_seconds = Histogram(
            "duel_http_request_seconds", "Time to answer an HTTP request (seconds).",
            ["method", "route"], buckets=HTTP_BUCKETS, registry=self.registry)
        self.live = _LiveCollector()
        self.registry.register(self.live)

    def watch(self, *, hub: Hub, lobby_hub: LobbyHub, quick_match: QuickMatch,
              pubsub: PubSub, service: GameService) -> None:
        """Read these (a lifespan's objects) from now on: their sockets and queue when
        scraped, the pub/sub's messages as heard, the service's moves as submitted."""
        self.live.hub, self.live.lobby_hub, self.live.quick_match = hub, lobby_hub, quick_match
        self.live.pubsub = pubsub
        self.live.service = service
        self.count_notifications(pubsub)
        instrument_submit(service, self)

    def count_notifications(self, pubsub: PubSub) -> None:
        """Count each message ``pubsub`` delivers to this process, by topic kind."""
        pubsub.subscribe(self._heard)

    async def _heard(self, topic: str, _message: dict[str, Any]) -> None:
        self.notifications.labels(kind=topic_kind(topic)).inc()

    def exposition(self) -> bytes:
        """The metrics in Prometheus's text format (:data:`METRICS_CONTENT_TYPE`)."""
        return generate_latest(self.registry)


def topic_kind(topic: str) -> str:
    """``lobby``, ``presence`` or ``game`` (a game's own topic is its id)."""
    if topic == LOBBY_CHANNEL:
        return "lobby"
    return "presence" if topic == PRESENCE_TOPIC else "game"


class _LiveCollector:
    """Gauges read at scrape time from the objects themselves, so they cannot drift."""

    def __init__(self) -> None:
        self.hub: Hub | None = None
        self.lobby_hub: LobbyHub | None = None
        self.quick_match: QuickMatch | None = None
        self.pubsub: PubSub | None = None
        self.service: GameService | None = None

    def collect(self) -> Iterator[Metric]:
        sockets = GaugeMetricFamily("duel_open_sockets",
                                    "WebSockets open on this process (game: joined to a game).",
                                    labels=["kind"])
        sockets.add_metric(["game"], game_sockets(self.hub) if self.hub else 0)
        sockets.add_metric(["lobby"], self.lobby_hub.socket_count() if self.lobby_hub else 0)
        yield sockets
        yield GaugeMetricFamily("duel_quick_match_waiting",
                                "Players waiting for quick match on this process's sockets.",
                                value=self.quick_match.waiting_here() if self.quick_match
                                else 0)
        yield GaugeMetricFamily("duel_moves_waiting",
                                "Moves waiting for their turn (DUEL_MOVES_WORKING at once).",
                                value=self.service.admission.waiting if self.service else 0)
        yield CounterMetricFamily(
            "duel_listener_reconnects",
            "Times the PostgreSQL notification listener had to connect again.",
            value=self.pubsub.reconnects if isinstance(self.pubsub, PostgresPubSub) else 0)


def game_sockets(hub: Hub) -> int:
    """The game sockets of this process that have joined (and been welcomed)."""
    total = 0
    for game_id in hub.games():
        counts = hub.local_counts(game_id)
        total += counts.seat0 + counts.seat1 + counts.spectators
    return total


def instrument_submit(service: GameService, metrics: Metrics) -> None:
    """Count, time and log each move ``service.submit`` commits, and count its refusals
    by code (a storage failure as ``unavailable``, the code the client is sent)."""
    submit = service.submit

    async def timed_submit(game_id: str, seat: int, action: Any, version: int,
                           client_id: str | None) -> Accepted:
        started = time.perf_counter()
        try:
            accepted = await submit(game_id, seat, action, version, client_id)
        except ServiceError as error:
            metrics.refusals.labels(code=error.code).inc()
            raise
        except STORAGE_ERRORS:
            metrics.refusals.labels(code="unavailable").inc()
            raise
        seconds = time.perf_counter() - started
        if not accepted.duplicate:  # a resend commits nothing
            metrics.moves.inc()
            metrics.move_seconds.observe(seconds)
        # DEBUG: the metrics say how many and how fast; this line, one per move, is for
        # following one game (DUEL_LOG_LEVEL=DEBUG) without flooding the logs under load.
        log.debug("move resent" if accepted.duplicate else "move committed",
                  game_id=game_id, version=accepted.version, seat=seat,
                  seconds=round(seconds, 6))
        return accepted

    service.submit = timed_submit  # type: ignore[method-assign]


# ---------------------------------------------------------------------- requests

REQUEST_ID_HEADER = "X-Request-ID"
ASSET_PATHS = ("/static/", "/vendor/")
"""The page's own files: answered without ``X-Request-ID``."""
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_GAME_PATH = re.compile(r"/(?:api|ws)/games/([A-Za-z0-9_-]{1,64})(?:/|$)")


def request_id_from(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The client's (or a proxy's) ``X-Request-ID`` if it is sane, else a fresh one: a
    header that could forge log lines or bloat them is not trusted."""
    for name, value in headers:
        if name.lower() == b"x-request-id":
            text = value.decode("latin-1")
            if _SANE_REQUEST_ID.fullmatch(text):
                return text
            break
    return uuid.uuid4().hex


def game_of(path: str) -> str | None:
    """The game id of ``/api/games/{id}...`` and ``/ws/games/{id}``."""
    found = _GAME_PATH.match(path)
    return found.group(1) if found else None


def route_of(scope: Scope, root_path: str) -> str:
    """The template of the route that served the request (a label of few values), from
    the scope once served; ``root_path`` as it was before."""
    path = getattr(scope.get("route"), "path", None)
    if isinstance(path, str):
        return path
    # FastAPI names no route for a mount (the static files), but the mount lengthened
    # the scope's root path by its own.
    mounted = scope.get("root_path", "")
    if isinstance(mounted, str) and len(mounted) > len(root_path):
        return f"{mounted[len(root_path):]}/{{path}}"
    return UNMATCHED


class RequestContext:
    """Binds ``request_id`` (and ``game_id``) to the logs of each HTTP request and
    WebSocket, sends the id back in ``X-Request-ID`` (a WebSocket's in its accept), and
    counts and times HTTP requests. Pure ASGI: nothing is buffered, and a WebSocket's
    tasks inherit the binding."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = request_id_from(scope["headers"])
        echoed = (REQUEST_ID_HEADER.lower().encode(), request_id.encode())
        context: dict[str, str] = {"request_id": request_id}
        game_id = game_of(scope["path"])
        if game_id is not None:
            context["game_id"] = game_id
        with structlog.contextvars.bound_contextvars(**context):
            if scope["type"] == "websocket":
                await self.app(scope, receive, _with_header(send, "websocket.accept", echoed))
                return
            # A page's scripts and styles (immutable, cached for a year) go without it:
            # 28 of them on the game's first load, where every byte counts (issue 10).
            await self._http(scope, receive, send,
                             None if scope["path"].startswith(ASSET_PATHS) else echoed)

    async def _http(self, scope: Scope, receive: Receive, send: Send,
                    echoed: tuple[bytes, bytes] | None) -> None:
        status = 500  # unless a response starts: the app failed before answering
        tagged = send if echoed is None else _with_header(send, "http.response.start", echoed)

        async def send_noting_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await tagged(message)

        root_path = scope.get("root_path", "")
        started = time.perf_counter()
        try:
            await self.app(scope, receive, send_noting_status)
        except Exception:
            # The server logs it too, but outside this request: here it has its id.
            log.exception("request failed", method=scope["method"], path=scope["path"])
            raise
        finally:
            seconds = time.perf_counter() - started
            method = scope["method"] if scope["method"] in METHODS else "other"
            route = route_of(scope, root_path)
            self.metrics.http_requests.labels(method=method, route=route,
                                              status=str(status)).inc()
            self.metrics.http_seconds.labels(method=method, route=route).observe(seconds)


def _with_header(send: Send, kind: str, header: tuple[bytes, bytes]) -> Send:
    """``send``, adding ``header`` to the message of type ``kind``."""

    async def sending(message: Message) -> None:
        if message["type"] == kind:
            message = {**message, "headers": [*message.get("headers", ()), header]}
        await send(message)

    return sending


# ---------------------------------------------------------------------- logs

class _CurrentStderr(logging.StreamHandler[TextIO]):
    """Writes to ``sys.stderr`` as it is when a record comes (test runners swap it), like
    the standard library's last-resort handler."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


_OURS = "_duel_handler"
"""Marks the root handler :func:`configure_logging` installed, to replace it next time."""


def configure_logging(settings: Settings, stream: TextIO | None = None) -> None:
    """Route every log record through structlog's formatter on one root handler:
    ``settings.log_format`` ``json`` (one object per line: ``timestamp`` in ISO 8601 UTC,
    ``level``, ``logger``, ``event``, ``exception`` when any, and the bound context such as
    ``request_id``) or ``text`` (for a person at a terminal). Written to ``stream``, or to
    standard error. Calling it again replaces the handler (one per process, the last
    application's); other handlers, pytest's among them, are left as they are, and
    records still propagate."""
    shared: list[structlog.typing.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    rendering: list[structlog.typing.Processor] = (
        [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()]
        if settings.log_format == "json" else [structlog.dev.ConsoleRenderer(colors=False)])
    formatter = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared,
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *rendering])
    handler: logging.Handler = (logging.StreamHandler(stream) if stream is not None
                                else _CurrentStderr())
    handler.setFormatter(formatter)
    setattr(handler, _OURS, True)
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, _OURS, False)]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    # The level is this server's own (``app.*``); libraries stay at INFO and up, their
    # debug lines (every SQLite call) being noise here.
    level = logging.getLevelNamesMapping()[settings.log_level]
    root.setLevel(max(level, logging.INFO))
    logging.getLogger("app").setLevel(level)
    structlog.configure(
        # Level filtered first: a debug line costs nothing when debug is off.
        processors=[structlog.stdlib.filter_by_level, *shared,
                    structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        # Not cached: a logger first used before this call (a test's service) would keep
        # the old configuration for good.
        cache_logger_on_first_use=False)

