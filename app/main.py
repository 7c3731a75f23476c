"""The application: ``uvicorn --factory app.main:create_app`` (``make run``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from app.api import routes, ws
from app.config import Settings, get_settings
from app.db.session import make_engine, make_sessionmaker
from app.realtime.hub import Hub
from app.realtime.pubsub import InProcessPubSub
from app.services.games import GameService, ServiceError


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

    @app.exception_handler(ServiceError)
    async def refused(_request: Request, error: ServiceError) -> JSONResponse:
        body: dict[str, object] = {"code": error.code, "message": error.message}
        if error.detail is not None:
            body["detail"] = error.detail
        return JSONResponse({"error": body}, status_code=error.status)

    app.include_router(routes.router)
    app.include_router(ws.router)
    return app
