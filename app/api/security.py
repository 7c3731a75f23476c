"""Security headers on every HTTP answer (:class:`SecurityHeaders`, a pure ASGI middleware).

- ``Content-Security-Policy`` of a page (HTML): scripts only from this origin, plus the
  page's two inline scripts (its import map, and the listener that tells when one of its
  modules could not be fetched), which carry a nonce made for each answer (``secrets``;
  templates write it as ``nonce="{{ csp_nonce }}"``, :func:`nonce_context`); no
  ``'unsafe-inline'`` or ``'unsafe-eval'``, style sheets from this origin only (the scripts
  set styles through the CSSOM, which no policy blocks), sockets to this origin and the
  public URL's, no plugins, no ``<base>``, forms posting here only, and no framing
  (``frame-ancestors 'none'``, with ``X-Frame-Options: DENY`` for browsers that predate
  it). Any other answer (JSON, redirects, plain errors) gets ``default-src 'none';
  frame-ancestors 'none'``: stricter, and a third of the bytes on every API answer; and of
  the headers below, only ``nosniff`` and HSTS (the others act on a page's links, frames
  and windows, which data has none of).
- ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: same-origin`` (``no-referrer``
  would also blank the ``Origin`` of our own POSTs), ``Cross-Origin-Opener-Policy:
  same-origin``, and ``Strict-Transport-Security`` when the public URL is https.
- The page's files (``/static``, ``/vendor``) carry ``nosniff`` alone: on a script, style
  sheet or icon the other headers do nothing (a policy or framing rule applies to a
  document), and each would cost every one of a game's thirty-odd first-load answers its
  bytes (issue 10's 60 KB budget; HTTP/1.1 repeats headers uncompressed).
- FastAPI's API pages (``/docs``, ``/redoc``) load Swagger UI and ReDoc from a CDN and run
  inline scripts that carry no nonce: on those paths alone, a policy that lets them.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.hosts import plain_host

NONCE_KEY = "duel.csp_nonce"
"""Where the answer's nonce waits in the ASGI scope for the templates."""
NONCE_BYTES = 16
ASSET_PATHS = ("/static/", "/vendor/")
HSTS = "max-age=31536000"
"""A year; without ``includeSubDomains``: other hosts under the public one are not ours."""

Headers = list[tuple[bytes, bytes]]


def _policy(directives: dict[str, str]) -> str:
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def socket_origin(site: str) -> str:
    """The WebSocket origin of a site's URL (``https://h`` -> ``wss://h``). CSP3 has
    ``'self'`` match it already; older browsers (Safari before 2022) did not."""
    parts = urlsplit(site)
    return f"{'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}"


def page_policy(site: str | None, nonce: str) -> str:
    """The policy of a page (HTML) but the API pages, with ``nonce`` for its inline scripts;
    its sockets may go to ``site`` (the public URL, or the address the page was opened
    on), if known."""
    return _policy({
        "default-src": "'self'",
        "script-src": f"'self' 'nonce-{nonce}'",
        "style-src": "'self'",
        "connect-src": f"'self' {socket_origin(site)}" if site else "'self'",
        "object-src": "'none'",
        "base-uri": "'none'",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
    })


DATA_POLICY = _policy({"default-src": "'none'", "frame-ancestors": "'none'"})
"""Any answer but a page (JSON, a redirect, a plain-text error): shown as a document, it
would load and run nothing."""
CDN = "https://cdn.jsdelivr.net"
DOCS_POLICY = _policy({
    "default-src": "'self'",
    "script-src": f"'self' {CDN} 'unsafe-inline'",
    "style-src": f"'self' {CDN} https://fonts.googleapis.com 'unsafe-inline'",
    "font-src": "'self' https://fonts.gstatic.com",
    "img-src": f"'self' data: {CDN} https://fastapi.tiangolo.com",
    "worker-src": "'self' blob:",  # ReDoc's search
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
})
"""FastAPI's Swagger UI and ReDoc pages: their CDN, and their inline scripts and styles."""


def _encoded(headers: Iterable[tuple[str, str]]) -> Headers:
    return [(name.lower().encode(), value.encode()) for name, value in headers]


class SecurityHeaders:
    """Adds the headers described above to every HTTP answer's start, the answer Starlette
    makes for an unhandled error included. WebSockets pass untouched: a handshake's answer
    is never shown as a document."""

    def __init__(self, app: ASGIApp, *, public_url: str | None,
                 docs_paths: Iterable[str | None] = ()) -> None:
        self.app = app
        self.public_url = public_url
        # Made once: per answer, only a page's nonce is new.
        common = [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin"),
                  ("X-Frame-Options", "DENY"), ("Cross-Origin-Opener-Policy", "same-origin")]
        if public_url and urlsplit(public_url).scheme == "https":
            common.append(("Strict-Transport-Security", HSTS))
        self.common = _encoded(common)
        self.assets = _encoded([("X-Content-Type-Options", "nosniff")])
        self.docs = [*self.common, *_encoded([("Content-Security-Policy", DOCS_POLICY)])]
        # Data is never a document a browser shows by itself: the referrer, framing and
        # opener headers have nothing to act on (the policy forbids framing anyway).
        self.data = [*self.common[:1], *self.common[4:],
                     *_encoded([("Content-Security-Policy", DATA_POLICY)])]
        self.docs_paths = frozenset(path for path in docs_paths if path)
        self.policy_around = self._policy_around(public_url) if public_url else None

    @staticmethod
    def _policy_around(site: str | None) -> tuple[bytes, bytes]:
        marker = "NONCE"
        before, _, after = page_policy(site, marker).partition(marker)
        return before.encode(), after.encode()

    def _page(self, scope: Scope, nonce: str) -> Headers:
        around = self.policy_around
        if around is None:  # no public URL: the sockets go where the page was opened
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            around = self._policy_around(
                f"{scope['scheme']}://{host}" if plain_host(host) else None)
        before, after = around
        return [*self.common, (b"content-security-policy", before + nonce.encode() + after)]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        fixed = (self.assets if path.startswith(ASSET_PATHS)
                 else self.docs if path in self.docs_paths else None)
        nonce = ""
        if fixed is None:  # the answer may be a page: its templates need the nonce first
            nonce = scope[NONCE_KEY] = secrets.token_urlsafe(NONCE_BYTES)
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = message.get("headers", ())
                added = fixed
                if added is None:
                    html = any(name == b"content-type" and value.startswith(b"text/html")
                               for name, value in headers)
                    added = self._page(scope, nonce) if html else self.data
                message = {**message, "headers": [*headers, *added]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            # Starlette's outermost layer would answer this 500 itself, outside every
            # middleware and so without the headers: answer as it would, then let it log.
            if not started:
                await send_with_headers({
                    "type": "http.response.start", "status": 500,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", b"21")]})
                await send({"type": "http.response.body", "body": b"Internal Server Error"})
            raise


def nonce_context(request: Request) -> dict[str, str]:
    """A Jinja2 context processor: ``csp_nonce``, the nonce of this answer's policy."""
    return {"csp_nonce": request.scope.get(NONCE_KEY, "")}


def local_path(target: str | None, *, under: str = "/") -> str | None:
    """``target`` if it is a path of this site under ``under``, for a redirect back to
    it; never another site (``//host``, a backslash that browsers read as a slash,
    anything unprintable): None then."""
    if target and target.startswith(under) and not target.startswith("//") \
            and "\\" not in target and target.isprintable():
        return target
    return None
