"""The stack's floor for a move, for ``bench/load.py``: the same frameworks as the game
server (FastAPI on uvicorn, the same WebSocket implementation and compression, SQLAlchemy on
asyncpg with the same pool, the cycle collector set as quiet) and no game at all.

A socket joins a table (``/bare/{table}/{seat}``); each message it sends is a move: one
row written in its own transaction (BEGIN, INSERT, COMMIT, as a real move's one statement
is), then a small update sent to both of the table's sockets. What a real move does on top
(the rules, the views, the other processes' delivery) is what ``bench/load.py`` measures
against this.

    uvicorn --factory bench.bare_server:create_app   # the game server's DUEL_* settings

in a schema holding the table :func:`create_table` makes.
"""

from __future__ import annotations

import gc
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from sqlalchemy import text

from app.config import Settings
from app.db.session import make_engine
from app.main import COLLECTOR_THRESHOLDS


def create_table(schema: str) -> str:
    """The statement making the moves' table in ``schema``: run once before the processes
    start (two making it at once would collide)."""
    return (f'CREATE TABLE "{schema}".bare_move (table_id text, version integer, '
            "action text, PRIMARY KEY (table_id, version))")


_INSERT = text("INSERT INTO bare_move (table_id, version, action) VALUES (:t, :v, :a)")


def create_app() -> FastAPI:
    # The game server's settings (DUEL_*): its database, schema and pool.
    settings = Settings()
    engine = make_engine(settings.database_url, settings.database_schema,
                         pool_size=settings.database_pool_size,
                         max_overflow=settings.database_pool_overflow,
                         pool_timeout=settings.database_pool_timeout)
    tables: dict[str, list[WebSocket | None]] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # The cycle collector as quiet as the game server's (app/main.py).
        gc.collect()
        gc.freeze()
        gc.set_threshold(*COLLECTOR_THRESHOLDS)
        yield
        await engine.dispose()

    app = FastAPI(lifespan=lifespan)

    @app.get("/readyz")
    async def ready() -> dict[str, str]:
        return {"status": "ready"}

    @app.websocket("/bare/{table_id}/{seat}")
    async def play(socket: WebSocket, table_id: str, seat: int) -> None:
        await socket.accept()
        sockets = tables.setdefault(table_id, [None, None])
        sockets[seat] = socket
        await socket.send_text('{"type":"welcome"}')  # seated: it hears every update now
        try:
            while True:
                move = json.loads(await socket.receive_text())
                async with engine.begin() as connection:
                    await connection.execute(_INSERT, {"t": table_id, "v": move["version"],
                                                       "a": move["action"]})
                update = json.dumps({"type": "update", "version": move["version"] + 1})
                for each in sockets:
                    if each is not None:
                        await each.send_text(update)
        except WebSocketDisconnect:
            sockets[seat] = None

    return app
