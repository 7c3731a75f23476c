"""The address a page was opened on (its ``Host``), and which hosts are this site's.

Without ``DUEL_PUBLIC_URL`` the links the server builds (invites, socket URLs) come from the
address the browser asked for, so that a server reached at ``http://192.168.1.7:9000`` hands
out links to that address. A ``Host`` is the browser's to choose, though: a page of
``evil.example`` whose name an attacker then points at this machine (DNS rebinding) asks for
``evil.example``. So a socket opened from the page's own origin is taken as this site's only
when that host cannot be such a name: one of ``DUEL_ALLOWED_HOSTS`` or the public URL's host,
and in development also an IP address or ``localhost``, which no other site's page can be
served from (docs/protocol.md, "Where a socket may come from").
"""

from __future__ import annotations

import re
from ipaddress import ip_address

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection
from starlette.types import Receive, Scope, Send

from app.config import Settings

_HOST = re.compile(r"(?P<name>[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?", re.IGNORECASE)
"""A ``Host`` header as browsers send it (name or IP, an optional port); nothing that could
break out of a header or a policy it is written into."""


def plain_host(host: str) -> bool:
    """Whether a ``Host`` header is a name or an IP, with an optional port, and nothing else."""
    return _HOST.fullmatch(host) is not None


def reached_host(connection: HTTPConnection) -> str | None:
    """The ``Host`` the client asked for (``h`` or ``h:port``, lower-cased), or None when
    there is none or it is not a plain host name."""
    host = connection.headers.get("host", "")
    return host.lower() if plain_host(host) else None


def _name(host: str) -> str:
    match = _HOST.fullmatch(host)
    return match["name"].lower() if match else ""


def _listed(name: str, patterns: tuple[str, ...]) -> bool:
    """``name`` matches a pattern of ``DUEL_ALLOWED_HOSTS`` (``*.duel.example``, ``*``)."""
    return any(pattern in ("*", name)
               or (pattern.startswith("*.") and name.endswith(pattern[1:]))
               for pattern in patterns)


def _unrebindable(name: str) -> bool:
    """An IP address or ``localhost``: a page reached by it is served from that very
    machine, never from another site under a borrowed name."""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def own_host(host: str, settings: Settings) -> bool:
    """Whether a page reached at ``host`` is this site's: an allowed host (or the public
    URL's); in development also an IP address or ``localhost``."""
    name = _name(host)
    if not name:
        return False
    return _listed(name, settings.host_names) or (not settings.production
                                                  and _unrebindable(name))


def site_url(connection: HTTPConnection, settings: Settings) -> str:
    """The site's address, without a trailing slash: the public URL, or else the one the
    client reached (its scheme, ``Host`` and any root path)."""
    if settings.public_url:
        return settings.public_url.rstrip("/")
    return str(connection.base_url).rstrip("/")


class SiteHosts(TrustedHostMiddleware):
    """In production, a request for a host that is not this site's is refused (400): the
    links it would be given would name that host. Probes and scrapers are let through
    whatever host they name (a replica's container name, a pod's address): what they read
    builds no link."""

    UNCHECKED = frozenset({"/healthz", "/readyz", "/metrics"})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] in self.UNCHECKED:
            await self.app(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)
