"""Probes for whoever runs the server (a container runtime, a load balancer):

- ``GET /healthz``: the process answers (liveness): 200 while it runs.
- ``GET /readyz``: it can serve games (readiness): the database answers, its schema is at
  the migrations' head, and the process hears the others' moves (PostgreSQL's
  notifications); 503 with what is wrong otherwise, so that a proxy sends no player to a
  replica that would fail them.
- ``GET /metrics``: this process's Prometheus metrics (``app/observability.py``; the list
  is in ``docs/operations.md``).
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from typing import Literal

from alembic.config import Config
from alembic.script import ScriptDirectory
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.observability import METRICS_CONTENT_TYPE, Metrics

router = APIRouter(tags=["operations"])
log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[2]


@cache
def migration_heads() -> frozenset[str]:
    """The revisions the migrations end at (read once: they change only with a deploy)."""
    config = Config()
    config.set_main_option("script_location", str(ROOT / "migrations"))
    return frozenset(ScriptDirectory.from_config(config).get_heads())


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


class Ready(BaseModel):
    status: Literal["ok"]
    revision: list[str]
    """The migrations' head, which the database is at."""


class NotReady(BaseModel):
    """What is wrong; only the fields that say it are sent."""

    status: Literal["unavailable"]
    database: Literal["unreachable", "not migrated"] | None = None
    notifications: Literal["not listening"] | None = None
    revision: list[str] | None = None
    """Not migrated: the revisions the database is at, ..."""
    head: list[str] | None = None
    """... and the head the migrations end at."""


# The answers are built by hand (a 503 is no refusal): their shapes are declared here.
@router.get("/readyz", responses={
    200: {"model": Ready, "description": "Ready to serve games"},
    503: {"model": NotReady, "description": "Not ready: send no player here (yet)"}})
async def readyz(request: Request) -> JSONResponse:
    engine: AsyncEngine = request.app.state.engine
    try:
        async with engine.connect() as connection:
            revisions = set((await connection.execute(
                text("SELECT version_num FROM alembic_version"))).scalars())
    except Exception as error:  # any failure to read is "not ready", said plainly
        log.warning("not ready: the database did not answer (%s)", error)
        return JSONResponse({"status": "unavailable", "database": "unreachable"},
                            status_code=503)
    if not request.app.state.pubsub.listening:
        # Its sockets would not hear the moves made on other processes.
        return JSONResponse({"status": "unavailable", "notifications": "not listening"},
                            status_code=503)
    heads = migration_heads()
    if revisions != heads:
        return JSONResponse({"status": "unavailable", "database": "not migrated",
                             "revision": sorted(revisions), "head": sorted(heads)},
                            status_code=503)
    return JSONResponse({"status": "ok", "revision": sorted(heads)})


# Not in the OpenAPI schema: it is for the scraper, not for API clients. Cheap: the
# counters are kept as things happen, the gauges read a few sizes.
@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    kept: Metrics = request.app.state.metrics
    return Response(kept.exposition(), media_type=METRICS_CONTENT_TYPE)
