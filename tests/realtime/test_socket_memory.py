"""A closed socket is freed at once, by reference counting: nothing of it is left in a
reference cycle for the cycle collector, which each server process runs seldom
(docs/operations.md, "Pauses"). Left in cycles, the same 1,000 sockets opened and closed
five times grew a process from 208 to 422 MB (``bench/load.py --churn``).

The application is served as ``make run`` serves it (uvicorn, on uvloop, with the protocol
classes of ``app/serving.py``) in this process, with the collector off: every object still
tracked once its socket has gone would stay until a collection."""

from __future__ import annotations

import gc
import json
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from typing import Any

import httpx
import uvicorn
import uvloop
from fastapi import FastAPI
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from websockets.asyncio.client import ClientConnection, connect

from app.api.ws import GameSocket
from app.realtime.hub import Connection
from app.realtime.lobby import LobbyConnection
from app.serving import HttpProtocol, SocketProtocol

SOCKET_CLASSES = (GameSocket, Connection, LobbyConnection, SocketProtocol, HttpToolsProtocol)
"""What a socket leaves behind if anything: its game socket, its connection (game and
lobby), its uvicorn protocols (the socket's, and the HTTP one it was upgraded from)."""


def alive() -> dict[str, int]:
    """How many objects of each of :data:`SOCKET_CLASSES` the collector still tracks: those
    in use, and those only a collection would free."""
    counts = {cls.__name__: 0 for cls in SOCKET_CLASSES}
    for thing in gc.get_objects():
        for cls in SOCKET_CLASSES:
            if isinstance(thing, cls):
                counts[cls.__name__] += 1
    return counts


@contextmanager
def collector_off() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


async def _joined(url: str, game_id: str, join: dict[str, Any]
                  ) -> tuple[ClientConnection, dict[str, Any]]:
    """A socket on the game, and its welcome."""
    ws = await connect(f"{url}/ws/games/{game_id}")
    await ws.send(json.dumps({"type": "join", **join}))
    while (welcome := json.loads(await ws.recv()))["type"] != "welcome":
        pass
    return ws, welcome


async def _until(ws: ClientConnection, wanted: Callable[[dict[str, Any]], bool]) -> None:
    while not wanted(json.loads(await ws.recv())):
        pass


@asynccontextmanager
async def _served(app: FastAPI) -> AsyncIterator[str]:
    """``app`` served as ``make run`` serves it, on a free port of 127.0.0.1: its address."""
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, http=HttpProtocol, ws=SocketProtocol, log_level="warning",
                            ws_max_size=1048576)
    config.load()
    server = uvicorn.Server(config)
    server.lifespan = config.lifespan_class(config)
    await server.startup(sockets=[listening])
    try:
        yield f"127.0.0.1:{listening.getsockname()[1]}"
    finally:
        await server.shutdown()
        listening.close()


async def _play(app: FastAPI) -> tuple[dict[str, int], dict[str, int]]:
    """Two seats, a spectator and a lobby socket open; a move made; all but seat 0's socket
    closed. What is alive then, and once the server has stopped."""
    async with AsyncExitStack() as serving:
        url = await serving.enter_async_context(_served(app))
        async with httpx.AsyncClient(base_url=f"http://{url}") as http:
            created = (await http.post("/api/games", json={"name": "Ann"})).json()
            game_id = created["game_id"]
            joined = (await http.post(f"/api/games/{game_id}/join", json={
                "invite_code": created["invite_code"], "name": "Bo"})).json()
        with collector_off():
            seats = [await _joined(f"ws://{url}", game_id,
                                   {"seat": seat, "token": answer["token"]})
                     for seat, answer in enumerate((created, joined))]
            spectator, _ = await _joined(f"ws://{url}", game_id, {})
            async with connect(f"ws://{url}/ws/lobby") as lobby:
                await lobby.recv()  # the lobby's picture
            mover, welcome = seats[seats[0][1]["view"]["to_act"]]
            await mover.send(json.dumps({
                "type": "action", "action": welcome["view"]["legal_actions"][0]["notation"],
                "version": welcome["version"], "client_id": "c1"}))
            await _until(mover, lambda message: message["type"] == "ack")
            # Seat 0 has read everything up to the move: the presence it hears next is news.
            await _until(seats[0][0], lambda message: message["type"] == "update")
            await seats[1][0].close()
            await spectator.close()
            # Told once both have left (their departures are done: the hub let go of them).
            await _until(seats[0][0], lambda message: message["type"] == "presence"
                         and message["seats"] == [True, False] and message["spectators"] == 0)
            while_open = alive()
            await seats[0][0].close()
            await serving.aclose()  # the server stopped, the collector still off
            return while_open, alive()


async def _extensions_agreed(app: FastAPI) -> str:
    """The compression a socket is answered with (the client offers permessage-deflate
    with client_max_window_bits, as browsers do)."""
    async with _served(app) as url, connect(f"ws://{url}/ws/lobby") as lobby:
        return str(lobby.response.headers["Sec-WebSocket-Extensions"])


def test_each_message_is_compressed_on_its_own(make_app: Callable[..., FastAPI]) -> None:
    """No compression context is kept between messages, either way: 0.1 KB a socket
    instead of 49 KB (uvicorn's own settings keep both contexts; this fails with them)."""
    agreed = uvloop.run(_extensions_agreed(make_app()))
    assert agreed.startswith("permessage-deflate"), agreed
    assert "server_no_context_takeover" in agreed and "client_no_context_takeover" in agreed
    assert "server_max_window_bits=13" in agreed and "client_max_window_bits=13" in agreed


def test_closed_sockets_are_freed_without_the_cycle_collector(
        make_app: Callable[..., FastAPI]) -> None:
    while_open, stopped = uvloop.run(_play(make_app()))
    # Seat 0's socket alone, and nothing of the HTTP protocol it was upgraded from.
    assert while_open == {"GameSocket": 1, "Connection": 1, "LobbyConnection": 0,
                          "SocketProtocol": 1, "HttpToolsProtocol": 0}
    assert stopped == dict.fromkeys(while_open, 0)
