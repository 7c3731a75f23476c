"""How uvicorn serves each connection, named on its command line besides the application:
``--http app.serving:HttpProtocol --ws app.serving:SocketProtocol`` (``make run``, the
container, the benches and the tests that start a server).

- :class:`SocketProtocol`: uvicorn's WebSocket protocol (websockets' sans-I/O one, what
  ``--ws auto`` picks) with a compression that keeps less per socket
  (:data:`SOCKET_DEFLATE`).
- :class:`HttpProtocol`: uvicorn's httptools protocol, which once a connection has become
  a socket lets go of what it no longer needs. Left as it is, it stays in a reference
  cycle with its parser that only the cycle collector frees, holding the connection's
  transport; this process runs that collector seldom (docs/operations.md, "Pauses").
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

SOCKET_DEFLATE: dict[str, Any] = {
    "server_max_window_bits": 13,
    "server_no_context_takeover": True,
    "client_max_window_bits": 13,
    "client_no_context_takeover": True,
    "compress_settings": {"memLevel": 6},
}
"""permessage-deflate as this server offers it (websockets' settings): each message
compressed on its own, both ways, so that no compressor or decompressor stays open
between messages (uvicorn's own keeps both, about 49 KB a socket, idle or not). Measured
on the messages of whole games (``bench/load.py --wire``): 11 % more bytes than with the
context kept (a move's update repeats much of the one before), for 49 KB less per socket;
a smaller window kept between messages saves less and costs more (10 bits: 22 KB kept,
+33 %). An 8 KB window (13 bits) holds any one of our messages: a larger one compresses
them no better and costs more to set up for each message."""


def deflate_factory() -> ServerPerMessageDeflateFactory:
    return ServerPerMessageDeflateFactory(**SOCKET_DEFLATE)


class SocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, with :data:`SOCKET_DEFLATE` for its
    compression (uvicorn fixes its own, and says only on or off)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn = ServerProtocol(extensions=[deflate_factory()],
                                       max_size=self.config.ws_max_size,
                                       logger=logging.getLogger("uvicorn.error"))


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, dropping its parser once the connection is a socket's
    (uvicorn drops it when the connection is lost, which is told to the socket's protocol
    instead): no cycle is left for the collector."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]
