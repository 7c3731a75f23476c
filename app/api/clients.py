"""Who is on the other end of a request or a socket: the address throttles and limits
count by."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from ipaddress import IPv4Address, IPv6Address, ip_address

from fastapi import WebSocket
from starlette.requests import HTTPConnection

from app.config import Network
from app.realtime.limits import TRY_LATER, SocketLimits
from app.realtime.messages import Encoded
from app.realtime.protocol import ProtocolError, refusal_message
from app.services.limits import address_key


def _address(hop: str) -> IPv4Address | IPv6Address | None:
    """A hop of ``X-Forwarded-For`` as an address: ``1.2.3.4``, ``1.2.3.4:5678``,
    ``2001:db8::1`` or ``[2001:db8::1]:5678``; None if it is none of those."""
    hop = hop.strip()
    if hop.startswith("["):
        hop = hop[1:].partition("]")[0]
    elif hop.count(":") == 1:
        hop = hop.partition(":")[0]
    try:
        return ip_address(hop)
    except ValueError:
        return None


def client_address(connection: HTTPConnection, proxies: tuple[Network, ...]) -> str:
    """The client's address: the connection's peer, unless the peer is one of ``proxies``;
    then the nearest hop of ``X-Forwarded-For`` that is not a proxy. The hops before it
    are whatever the client wrote, so they are never believed; nor is a hop that is not an
    address, which stops the walk at the last proxy."""
    peer = connection.client.host if connection.client else ""
    nearest = _address(peer)
    if nearest is None or not any(nearest in network for network in proxies):
        return peer
    hops = [hop for header in connection.headers.getlist("x-forwarded-for")
            for hop in header.split(",")]
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            break
        nearest = address
        if not any(address in network for network in proxies):
            break
    return str(nearest)


async def serve_admitted(websocket: WebSocket, serve: Callable[[], Awaitable[None]]) -> None:
    """Accept the socket and ``serve`` it, within this process's sockets per address
    (counted until it closes); past them, it is told why (``too_many_sockets``) and closed
    (1013: try again later)."""
    limits: SocketLimits = websocket.app.state.socket_limits
    address = address_key(client_address(websocket,
                                         websocket.app.state.settings.proxy_networks))
    try:
        limits.admit(address)
    except ProtocolError as error:
        await websocket.accept()
        await websocket.send_text(Encoded(refusal_message(error)).text)
        await websocket.close(code=TRY_LATER)
        return
    try:
        await websocket.accept()
        await serve()
    finally:
        limits.release(address)
