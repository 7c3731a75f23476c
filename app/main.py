"""The application: ``uvicorn --factory app.main:create_app`` (``make run``)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import iter_route_contexts
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import ClientDisconnect
from starlette.routing import Match

from app.api import (
    accounts,
    admin,
    catalog,
    health,
    lobby,
    pages,
    players,
    routes,
    standings,
    ws,
)
from app.api.bundles import PREFIX as BUNDLE_PREFIX
from app.api.bundles import BundleAssets
from app.api.delivery import VENDOR_MODULES, HeadAsGet, StaticAssets, add_compression
from app.api.hosts import SiteHosts
from app.api.identity import AccountSessions
from app.api.paths import AddressCheck
from app.api.refusals import address_refusals, refusal_response
from app.api.security import SecurityHeaders
from app.clock import Clock, SystemClock
from app.config import Settings, get_settings
from app.db.pubsub import InProcessPubSub, PostgresPubSub, PubSub
from app.db.session import make_engine, make_sessionmaker
from app.observability import Metrics, RequestContext, configure_logging
from app.realtime.hub import Hub
from app.realtime.limits import SocketLimits
from app.realtime.lobby import LobbyHub, QuickMatch
from app.services.accounts import AccountService
from app.services.admin import AdminService
from app.services.chat import ChatService
from app.services.clocks import WallClock
from app.services.computer import ComputerPlayers, Thinkers
from app.services.errors import STORAGE_ERRORS, UNAVAILABLE, retry_after, wait_of
from app.services.expiry import Expiry
from app.services.flags import FlagWatch
from app.services.games import GameService, ServiceError, fresh_seed
from app.services.limits import PasswordThrottle
from app.services.lobby import LobbyService
from app.services.notices import PRESENCE_TOPIC, PresenceChanged
from app.services.players import PlayerService
from app.services.servers import ServerRegistry
from app.services.standings import StandingsService

SESSION_COOKIE = "duel_session"
COLLECTOR_THRESHOLDS = (50_000, 20, 20)
"""The cycle collector's thresholds once started (Python's are 700, 10, 10). Most garbage
goes by reference counting; at Python's pace, 2,000 sockets rejoining at once set off a
full pass (200-300 ms each, over every socket's objects) every few hundred joins."""
log = logging.getLogger(__name__)


_NOT_PAGES = ("/api/", "/admin/api/", "/ws/", "/static/", "/vendor/")
"""Where a refusal is answered in JSON whoever asks: the API, sockets and files."""


def _for_a_page(request: Request) -> bool:
    """A request for a page, not a call of the API nor a file: a refusal of it is said in a
    page, not in JSON."""
    return request.method == "GET" and not request.url.path.startswith(_NOT_PAGES)


def _asks_for_a_page(request: Request) -> bool:
    """A browser's navigation to a page (it accepts HTML), not a script's call or a file."""
    return _for_a_page(request) and "text/html" in request.headers.get("accept", "")


def _methods_of(request: Request) -> list[str]:
    """Every method some route takes at the request's path: the router's own 405 names only
    the first route that matches the path (``/api/me``: GET, though PUT and DELETE are
    there too)."""
    scope = {"type": "http", "path": request.url.path, "root_path": "",
             "method": request.method}
    methods: set[str] = set()
    for route in iter_route_contexts(request.app.router.routes):
        if route.methods and route.matches(scope)[0] != Match.NONE:
            methods |= route.methods
    if "GET" in methods:  # answered as GET without its body (HeadAsGet)
        methods.add("HEAD")
    return sorted(methods)


def _not_found_page(request: Request) -> Response:
    """A person followed a link to nothing: say so in a page, not in JSON."""
    return pages.templates.TemplateResponse(request, "not_found.html", {}, status_code=404)


async def _keep_registered(registry: ServerRegistry, pubsub: PubSub, clock: Clock, *,
                           interval: float, hub: Hub, queue: QuickMatch,
                           wall: WallClock) -> None:
    """Say this server is alive now and then; when others fell silent for good, their
    games hear who is left. Taken for dead itself (a long pause, the database away), this
    server writes its presence and its players' queue places again. Each time, the
    database's clock is read again for the players' clocks, and rated players waiting in
    quick match whose rating gaps have widened enough are paired."""
    while True:
        try:
            await registry.calibrate(wall)
        except Exception:
            log.exception("could not read the database's clock")
        await clock.sleep(interval)
        try:
            games, revived = await registry.beat()
            await _presence_changed(pubsub, games)
            if revived:
                hub.rewrite_presence()
                await queue.requeue()
        except Exception:  # the database may be down a moment: try again next beat
            log.exception("could not say this server is alive")
        try:
            await queue.pair_waiting()
        except Exception:
            log.exception("could not pair the rated players waiting")


async def _presence_changed(pubsub: PubSub, games: list[str]) -> None:
    for message in PresenceChanged.batches(games):
        await pubsub.publish(PRESENCE_TOPIC, message.to_json())


async def _unregister(registry: ServerRegistry, pubsub: PubSub) -> None:
    """This server stops: the games where it had sockets hear who is left."""
    try:
        await _presence_changed(pubsub, await registry.unregister())
    except Exception:
        log.exception("could not unregister this server (the others will time it out)")


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    configure_logging(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url, settings.database_schema,
                             pool_size=settings.database_pool_size,
                             max_overflow=settings.database_pool_overflow,
                             pool_timeout=settings.database_pool_timeout)
        sessions = make_sessionmaker(engine)
        # PostgreSQL: several processes may serve the same games; SQLite: this one alone.
        pubsub: InProcessPubSub | PostgresPubSub = (
            PostgresPubSub(engine, settings.database_schema)
            if engine.dialect.name == "postgresql" else InProcessPubSub())
        app.state.settings = settings
        app.state.engine = engine
        app.state.pubsub = pubsub
        app.state.service = GameService(sessions, pubsub, settings, seeds=app.state.seeds,
                                        wall=app.state.wall)
        app.state.chat = ChatService(sessions, pubsub, settings, app.state.clock)
        registry = ServerRegistry(sessions, timeout=settings.server_timeout)
        app.state.registry = registry
        # Presence over several processes is kept in the database; one process (SQLite)
        # knows all of it by itself.
        hub = Hub(sync=app.state.service.sync, take=app.state.service.take,
                  registry=registry if pubsub.crosses_processes else None,
                  publish=pubsub.publish, wall=app.state.wall,
                  spectator_presence=settings.spectator_presence_seconds)
        app.state.socket_limits = SocketLimits(per_address=settings.sockets_per_address)
        app.state.hub = hub
        app.state.service.watch(hub.on_applied)
        # After the hub: the players hear of a move before the computer thinks about it.
        thinkers = app.state.thinkers or Thinkers(settings.computer_workers,
                                                  settings.analysis_processes())
        app.state.computer = ComputerPlayers(app.state.service, sessions, settings, thinkers,
                                             clock=app.state.clock)
        app.state.service.watch(app.state.computer.on_applied)
        app.state.service.watch_starts(app.state.computer.consider)
        app.state.players = PlayerService(sessions)
        app.state.lobby = LobbyService(sessions, app.state.wall)
        app.state.lobby_hub = LobbyHub(app.state.lobby, debounce=settings.lobby_debounce,
                                       clock=app.state.clock)
        app.state.quick_match = QuickMatch(app.state.service, sessions, registry, pubsub)
        app.state.admin = AdminService(sessions, settings, app.state.service)
        app.state.standings = StandingsService(sessions,
                                               min_games=settings.leaderboard_min_games)
        app.state.accounts = AccountService(
            sessions, PasswordThrottle(app.state.service.limits,
                                       attempts=settings.login_attempts,
                                       attempts_per_account=settings.login_attempts_per_account),
            app.state.service.limits, registrations_per_hour=settings.accounts_per_hour,
            session_days=settings.player_session_days)
        # First among the listeners: a message is counted before anything it causes.
        metrics.watch(hub=hub, lobby_hub=app.state.lobby_hub,
                      quick_match=app.state.quick_match, pubsub=pubsub,
                      service=app.state.service)
        pubsub.subscribe(hub.on_published)
        pubsub.subscribe(hub.on_presence)
        pubsub.subscribe(app.state.lobby_hub.on_published)
        pubsub.subscribe(app.state.quick_match.on_published)
        pubsub.on_resync(hub.resync)
        pubsub.on_resync(app.state.lobby_hub.resync)
        await registry.register()
        if not pubsub.crosses_processes:  # alone: the sockets of before went with it
            await app.state.service.everyone_left()
        if isinstance(pubsub, PostgresPubSub):
            await pubsub.start()
        try:  # the players' clocks by the database's, from the first move
            await registry.calibrate(app.state.wall)
        except Exception:
            log.exception("could not read the database's clock")
        heartbeat = asyncio.create_task(_keep_registered(
            registry, pubsub, app.state.clock, interval=settings.server_heartbeat, hub=hub,
            queue=app.state.quick_match, wall=app.state.wall))
        app.state.flags = FlagWatch(app.state.service, sessions, clock=app.state.clock,
                                    wall=app.state.wall, interval=settings.flag_interval)
        flags = asyncio.create_task(app.state.flags.run())
        app.state.expiry = Expiry(app.state.service, sessions, clock=app.state.clock,
                                  open_game_hours=settings.open_game_hours)
        expiry = asyncio.create_task(app.state.expiry.run())
        computer = asyncio.create_task(app.state.computer.run())
        if app.state.bundler is not None:  # built now rather than for the first visitor
            await run_in_threadpool(app.state.bundler.refresh)
        # What exists now (modules, classes, the framework's tables) lives as long as the
        # process: out of the cycle collector's sight, a full collection's pause (which
        # every socket waits through) shrinks by about as much; and collections come
        # rarer, so that a storm of sockets does not set off one full pass after another
        # (docs/operations.md, "Pauses").
        gc.collect()
        gc.freeze()
        gc.set_threshold(*COLLECTOR_THRESHOLDS)
        yield
        for task in (heartbeat, flags, expiry, computer):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await _unregister(registry, pubsub)
        if isinstance(pubsub, PostgresPubSub):
            await pubsub.close()
        await hub.close()
        await app.state.quick_match.close()
        await app.state.lobby_hub.close()
        await app.state.computer.close()
        await engine.dispose()

    app = FastAPI(title="Duel, online", summary="7 Wonders Duel for two browsers",
                  lifespan=lifespan, responses=address_refusals())
    # The sockets' timers read the clock, new games are dealt from the seeds; a test may put
    # its own here before starting (a clock it moves, seeds that repeat).
    app.state.clock = SystemClock()
    app.state.wall = WallClock()
    app.state.seeds = fresh_seed
    # The computer players think in worker processes; a test may put threads here instead.
    app.state.thinkers = None
    # This application's own metrics (GET /metrics): several applications in one process
    # (the tests) count apart.
    metrics = app.state.metrics = Metrics()

    # Every refusal has one shape: {"error": {"code", "message", "params", "detail"?}}
    # (except a page's "not found", said in a page to a browser).
    @app.exception_handler(ServiceError)
    async def refused(request: Request, error: ServiceError) -> Response:
        if error.status == 404 and _asks_for_a_page(request):  # e.g. /language/<unknown>
            return _not_found_page(request)
        response = refusal_response(error.status, error.code, error.message, error.detail,
                                    error.params)
        if error.status == 401:  # RFC 9110: say which scheme would do
            response.headers["WWW-Authenticate"] = "Bearer"
        if error.status == 429 or (error.status == 503 and wait_of(error) is not None):
            response.headers["Retry-After"] = str(retry_after(error))
        return response

    async def unavailable(request: Request, error: Exception) -> Response:
        log.error("storage failure", exc_info=error)
        headers = {"Retry-After": "5"}
        if _for_a_page(request):  # a person asked for a page: say so in one, not in JSON
            return pages.templates.TemplateResponse(
                request, "unavailable.html", {}, status_code=503,
                headers=headers)
        response = refusal_response(503, "unavailable", UNAVAILABLE)
        response.headers.update(headers)
        return response

    for storage_error in STORAGE_ERRORS:
        app.add_exception_handler(storage_error, unavailable)

    @app.exception_handler(ClientDisconnect)
    async def gone(request: Request, _error: ClientDisconnect) -> Response:
        # The client hung up while sending its body: nobody is left to answer, and nothing
        # was done. A line, not a traceback.
        log.info("client left during its request to %s", request.url.path)
        return Response(status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return refusal_response(422, "invalid_request", f"{where}: {first['msg']}",
                                params={"field": where})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if error.status_code == 404 and _asks_for_a_page(request):
            return _not_found_page(request)
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code)
        if code is None:
            response = refusal_response(error.status_code, "http_error", str(error.detail),
                                        params={"http_status": error.status_code})
        else:
            response = refusal_response(error.status_code, code, str(error.detail))
        # What the router says with it (a 405's Allow: the methods the path takes).
        response.headers.update(error.headers or {})
        if error.status_code == 405:
            methods = _methods_of(request)
            if methods:
                response.headers["Allow"] = ", ".join(methods)
        return response

    # Inside the session's middleware: a login session its account has ended is dropped
    # before anything reads it.
    app.add_middleware(AccountSessions)
    # Signed (not encrypted) cookie: it holds only ids. Lax keeps other sites' forms from
    # posting with it.
    app.add_middleware(SessionMiddleware, secret_key=settings.session_secret(),
                       session_cookie=SESSION_COOKIE, same_site="lax",
                       max_age=int(settings.player_session_days * 86400),
                       https_only=settings.secure_cookies)
    # Added after the others, so it wraps them: every HTTP answer of the routes, the
    # refusals too, is compressed (app/api/delivery.py).
    add_compression(app)
    # Outside the sessions (which read the database): an address that can name nothing
    # here is refused before anything reads it (app/api/paths.py).
    app.add_middleware(AddressCheck)
    # In production, a request for a host not this site's is refused (400) before anything
    # reads it: its links would name that host (app/api/hosts.py). Inside the security
    # headers and the request context, so the refusal carries the one and is counted.
    if settings.production:
        app.add_middleware(SiteHosts, allowed_hosts=settings.trusted_hosts(),
                           www_redirect=False)
    # Around the routes and the refusals, so that every answer carries the headers, and
    # beneath the request context, which then counts and logs the 500 it makes for an
    # unhandled error (app/api/security.py).
    app.add_middleware(SecurityHeaders, public_url=settings.public_url,
                       docs_paths=(app.docs_url, app.redoc_url,
                                   app.swagger_ui_oauth2_redirect_url))
    # HEAD as GET without the body: around everything that answers, beneath the request
    # context, which logs the request as it came (HEAD).
    app.add_middleware(HeadAsGet)
    # Outermost: the request id is bound for all the layers beneath, and the time counted
    # includes theirs (app/observability.py).
    app.add_middleware(RequestContext, metrics=metrics)
    app.include_router(routes.router)
    app.include_router(players.router)
    app.include_router(accounts.router)
    app.include_router(standings.router)
    app.include_router(lobby.router)
    app.include_router(catalog.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.include_router(admin.router)
    app.include_router(health.router)
    # The bundles first: /static/bundle is not a directory of static/.
    app.state.bundler = pages.BUNDLER if settings.minify_assets else None
    if settings.minify_assets:
        app.mount(BUNDLE_PREFIX, BundleAssets(pages.BUNDLER), name="bundle")
    app.mount("/static", StaticAssets(pages.STATIC,
                                      minifier=pages.MINIFIER if settings.minify_assets else None),
              name="static")
    app.mount("/vendor", StaticAssets(pages.VENDOR, only=frozenset(VENDOR_MODULES.values())),
              name="vendor")
    return app
