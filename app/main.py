"""The application: ``uvicorn --factory app.main:create_app`` (``make run``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.api import catalog, pages, routes, ws
from app.config import Settings, get_settings
from app.db.session import make_engine, make_sessionmaker
from app.realtime.hub import Hub
from app.realtime.pubsub import InProcessPubSub
from app.services.games import GameService, ServiceError


def _error(status: int, code: str, message: str, detail: str | None = None) -> JSONResponse:
    body: dict[str, object] = {"code": code, "message": message}
    if detail is not None:
        body["detail"] = detail
    return JSONResponse({"error": body}, status_code=status)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url, settings.database_schema)
        pubsub = InProcessPubSub()
        hub = Hub()
        pubsub.subscribe(hub.on_published)
        app.state.settings = settings
        app.state.hub = hub
        app.state.service = GameService(make_sessionmaker(engine), pubsub, settings)
        yield
        await engine.dispose()

    app = FastAPI(title="Duel, online", summary="7 Wonders Duel for two browsers",
                  lifespan=lifespan)

    # Every refusal has one shape: {"error": {"code", "message", "detail"?}}.
    @app.exception_handler(ServiceError)
    async def refused(_request: Request, error: ServiceError) -> JSONResponse:
        response = _error(error.status, error.code, error.message, error.detail)
        if error.status == 401:  # RFC 9110: say which scheme would do
            response.headers["WWW-Authenticate"] = "Bearer"
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return _error(422, "invalid_request", f"{where}: {first['msg']}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        codes = {404: "not_found", 405: "method_not_allowed"}
        return _error(error.status_code, codes.get(error.status_code, "http_error"),
                      str(error.detail))

    app.include_router(routes.router)
    app.include_router(catalog.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=pages.ROOT / "static"), name="static")
    return app
