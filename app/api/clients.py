"""Who is on the other end of a request or a socket: the address throttles and limits
count by."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from ipaddress import ip_address

from fastapi import WebSocket
from starlette.requests import HTTPConnection

from app.config import Network
from app.realtime.limits import TRY_LATER, SocketLimits
from app.realtime.messages import Encoded
from app.realtime.protocol import ProtocolError, refusal_message


def _trusted(address: str, proxies: tuple[Network, ...]) -> bool:
    try:
        parsed = ip_address(address)
    except ValueError:
        return False
    return any(parsed in network for network in proxies)


def client_address(connection: HTTPConnection, proxies: tuple[Network, ...]) -> str:
    """The client's address: the connection's peer, unless the peer is one of ``proxies``;
    then the nearest address in ``X-Forwarded-For`` that is not a proxy (the hops before
    it are whatever the client wrote, so they are never believed)."""
    peer = connection.client.host if connection.client else ""
    if not _trusted(peer, proxies):
        return peer
    hops = [hop.strip() for header in connection.headers.getlist("x-forwarded-for")
            for hop in header.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, proxies):
            return hop
    return hops[0] if hops else peer


async def serve_admitted(websocket: WebSocket, serve: Callable[[], Awaitable[None]],
                         game_id: str | None = None) -> None:
    """Accept the socket and ``serve`` it, within this process's socket limits (counted
    until it closes); past one, it is told why (``too_many_sockets``) and closed (1013:
    try again later)."""
    limits: SocketLimits = websocket.app.state.socket_limits
    address = client_address(websocket, websocket.app.state.settings.proxy_networks)
    try:
        limits.admit(address, game_id)
    except ProtocolError as error:
        await websocket.accept()
        await websocket.send_text(Encoded(refusal_message(error)).text)
        await websocket.close(code=TRY_LATER)
        return
    try:
        await websocket.accept()
        await serve()
    finally:
        limits.release(address, game_id)
