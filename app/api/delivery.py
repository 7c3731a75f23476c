"""How the browser's files reach it: compressed, and cached for as long as they stay the same.

- Compression: :func:`add_compression` wraps the application in starlette-compress.
- Static files (``/static``, :class:`StaticAssets`): every answer carries validators (an
  ETag made of the file's content; no Last-Modified or Accept-Ranges, bytes that every
  one of a page's thirty-odd answers would carry for nothing), so a revalidation is a 304 with no
  body. A template names a file through ``static_url("js/game.js")``, which gives
  ``/static/js/game.js?v=<digest of its content>``: an answer whose ``v`` is the file's
  digest now may be kept for a year without asking again (``immutable``), since a changed
  file gets a new URL. Every other answer (no ``v``, or the ``v`` of an older content, as a
  page from before a deploy would ask for) says ``no-cache``: kept, but revalidated before
  each use.
- ES modules import each other by plain relative URLs (``./api.js``), which cannot carry
  the digest without a build step. Every page carries an import map (``import_map()``)
  that maps each module's plain URL to its fingerprinted one (but the pages' own scripts
  and the words of the languages other than the page's: app/api/pages.py), so the
  browser fetches and caches them as it does the files the templates name; a browser
  without import maps asks for the plain URL and revalidates it.
- Browser libraries (Preact, htm) come from the npm registry (``package.json`` and its
  lockfile; ``npm ci`` puts them in ``node_modules``). :data:`VENDOR_MODULES` names the
  ES module files a page may import by bare specifier (``import { html } from
  "htm/preact"``); the import map sends each to its fingerprinted URL under ``/vendor``,
  and only those files are served there. Nothing is copied into ``static/``.
- The pages' scripts are bundled (app/api/bundles.py, ``page_script`` in the templates);
  the import map then names only the catalogs of words, and the rest of this module serves
  what is not bundled, or every module when bundles are off.
- Our scripts and style sheets are sent minified (:class:`Minifier`: esbuild from npm,
  each file on its own; a third off our modules once compressed). The files
  in ``static/`` stay the readable source; without the esbuild binary, or with
  ``DUEL_MINIFY_ASSETS=false``, they are sent as they are.
- A static file, and JSON that is the same for everyone until a deploy (``/api/catalog``,
  :class:`CacheableJSON`), is compressed once per content at the codings' highest
  settings (:class:`Encoded`: brotli 11, gzip 9; a tenth smaller than the middleware's
  on-the-fly quality 6, which must stay cheap for per-request answers) and kept in memory;
  the middleware passes such an answer as it is. The catalog is sent ``no-cache`` with an
  ETag of its content, a 304 when unchanged.
- The pages themselves are not cached (:data:`PAGE_HEADERS`): they carry the player.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import mimetypes
import os
import platform
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISREG
from typing import Any

import brotli
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, QueryParams
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette_compress import CompressMiddleware

log = logging.getLogger(__name__)

IMMUTABLE = "max-age=31536000, immutable"
"""A fingerprinted URL's answer: its content never changes (a new content, a new URL).
Shared caches may keep it without ``public``, which only matters for requests that carry
an ``Authorization`` header (ours carry none)."""
REVALIDATE = "no-cache"
"""Any other cacheable answer: kept, but checked (its ETag) before each use."""
PAGE_HEADERS = {"Cache-Control": "private, no-cache"}
"""The HTML pages: they carry the player's identity, so no shared cache keeps them, and
they carry no validator, so the browser fetches them anew."""
DIGEST_CHARS = 16


COMPRESS_FROM = 256
"""Answers this many bytes long or longer are compressed."""


def add_compression(app: FastAPI) -> None:
    """Compresses every answer of a text type (HTML, JS, CSS, JSON, SVG) of 256 bytes or more
    in brotli or gzip, as the client accepts (brotli first), adding ``Vary: Accept-Encoding``;
    other answers, 304s and WebSockets pass untouched.

    starlette-compress rather than Starlette's own GZipMiddleware: the same kind of small,
    maintained ASGI middleware, but it also speaks brotli, and it compresses by an allow-list
    of text types instead of everything but event streams. Its zstd is left off: browsers
    that accept zstd accept brotli too, and on our files brotli at quality 6 is smaller than
    zstd at a like cost. Quality 6 and gzip level 6 rather than the library's 4: a few
    percent smaller (board.js: 16.0 KB in brotli, 16.8 KB in gzip, against 17.5 KB at 4) for
    about a millisecond, paid once per browser and version, the files being cached. From
    256 bytes rather than the library's 500: a game's summary (about 450 bytes of JSON)
    comes in 250, well past what the coding's headers cost."""
    app.add_middleware(CompressMiddleware, minimum_size=COMPRESS_FROM, zstd=False,
                       brotli_quality=6, gzip_level=6)


COMPRESSED_SUFFIXES = frozenset({".js", ".mjs", ".css", ".svg", ".json", ".html", ".txt"})
"""The static files sent compressed (text); images and fonts are compressed already."""
CODING_OVERHEAD = 60
"""About what ``Content-Encoding`` and ``Vary`` add to an answer's headers, in bytes: a
coding that saves less is not worth sending."""


def accepted_codings(accept_encoding: str | None) -> frozenset[str]:
    """The content codings an ``Accept-Encoding`` header allows (``q=0`` refuses one;
    ``*`` allows any not refused)."""
    allowed: set[str] = set()
    refused: set[str] = set()
    for item in (accept_encoding or "").lower().split(","):
        coding, *params = (part.strip() for part in item.split(";"))
        quality = next((p.partition("=")[2] for p in params if p.startswith("q=")), "1")
        try:
            wanted = float(quality) > 0
        except ValueError:
            wanted = False
        (allowed if wanted else refused).add(coding)
    if "*" in allowed:
        allowed |= {"br", "gzip"} - refused
    return frozenset(allowed - refused)


@dataclass(frozen=True)
class Encoded:
    """A body made once and sent many times, with its brotli and gzip forms where they
    save enough to be worth their headers."""

    identity: bytes
    br: bytes | None
    gzip: bytes | None

    @classmethod
    def of(cls, body: bytes) -> Encoded:
        def worth(coded: bytes) -> bytes | None:
            return coded if len(coded) + CODING_OVERHEAD < len(body) else None

        return cls(body, worth(brotli.compress(body, quality=11)),
                   worth(gzip.compress(body, compresslevel=9, mtime=0)))

    def choose(self, accept_encoding: str | None) -> tuple[str | None, bytes]:
        """The coding to send (None: the body as it is) and its bytes: brotli first."""
        codings = accepted_codings(accept_encoding) if self.br or self.gzip else frozenset()
        if self.br is not None and "br" in codings:
            return "br", self.br
        if self.gzip is not None and "gzip" in codings:
            return "gzip", self.gzip
        return None, self.identity

    def response(self, request_headers: Headers, *, media_type: str, etag: str,
                 cache_control: str, status_code: int = 200) -> Response:
        """The answer in the best coding the request accepts, or a 304 when the request
        names its ETag. A coding's ETag (``"<tag>-br"``) differs from the body's own: a
        tag names the bytes sent."""
        coding, body = self.choose(request_headers.get("accept-encoding"))
        if coding is not None:
            etag = f'{etag[:-1]}-{coding}"'
        headers = {"etag": etag, "cache-control": cache_control}
        if self.br is not None or self.gzip is not None:
            headers["vary"] = "Accept-Encoding"
        if not_modified(request_headers, etag):
            return Response(status_code=304, headers=headers)
        if coding is not None:
            headers["content-encoding"] = coding
        return Response(body, status_code=status_code, media_type=media_type,
                        headers=headers)


def _digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()[:DIGEST_CHARS]


def not_modified(request_headers: Headers, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (or ``*``): weak forms count, as a proxy
    that recompresses an answer may have weakened the tag."""
    asked = request_headers.get("if-none-match")
    if not asked:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in asked.split(",")]
    return "*" in tags or etag in tags


class Fingerprints:
    """The content digests of the files under ``directory`` (served at ``prefix``), read
    again whenever a file's size, times or inode change."""

    def __init__(self, directory: Path, prefix: str = "/static") -> None:
        self.directory = directory.resolve()
        self.prefix = prefix.rstrip("/")
        self._known: dict[str, tuple[tuple[int, ...], str]] = {}

    def of_file(self, full_path: str, stat: os.stat_result) -> str:
        """The digest of the file at ``full_path``, whose ``os.stat`` is ``stat``."""
        key = (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)
        known = self._known.get(full_path)
        if known is not None and known[0] == key:
            return known[1]
        digest = _digest(Path(full_path).read_bytes())
        self._known[full_path] = (key, digest)
        return digest

    def url(self, path: str) -> str:
        """``path`` (relative to the directory) as a URL that changes with its content.
        A missing file raises, so a page naming one fails in the tests, not in a browser."""
        full = os.path.realpath(self.directory / path)
        if os.path.commonpath([full, self.directory]) != str(self.directory):
            raise ValueError(f"{path!r} is not under {self.directory}")
        return f"{self.prefix}/{path}?v={self.of_file(full, os.stat(full))}"

    def import_map(self, under: str = "js", leave_out: frozenset[str] = frozenset()
                   ) -> dict[str, dict[str, str]]:
        """An import map sending each ES module under ``under`` (but those of ``leave_out``)
        from its plain URL (how the modules import one another) to its fingerprinted one."""
        modules = sorted(name for module in (self.directory / under).rglob("*.js")
                         if (name := module.relative_to(self.directory).as_posix())
                         not in leave_out)
        return {"imports": {f"{self.prefix}/{module}": self.url(module) for module in modules}}


VENDOR_MODULES = {
    "preact": "preact/dist/preact.mjs",
    "preact/hooks": "preact/hooks/dist/hooks.mjs",
    "htm": "htm/dist/htm.mjs",
    "htm/preact": "htm/preact/index.mjs",
}
"""Bare import specifier -> its ES module file under ``node_modules``."""


def vendor_import_map(vendor: Fingerprints) -> dict[str, str]:
    """Each of :data:`VENDOR_MODULES` by its specifier, to its fingerprinted URL. A missing
    file (``npm ci`` not run) raises, so a page needing it fails in the tests."""
    return {specifier: vendor.url(path) for specifier, path in VENDOR_MODULES.items()}


MINIFIED_LOADERS = {".js": "js", ".mjs": "js", ".css": "css"}
"""esbuild's loader for each kind of file :class:`Minifier` minifies."""


class Minifier:
    """JavaScript and CSS as esbuild minifies them: whitespace, comments and local names
    go, the meaning stays (each file alone, ES module syntax kept). esbuild
    rather than a Python minifier: the ones on PyPI (rjsmin) break template literals,
    which every view of ours is written in."""

    def __init__(self, binary: Path | None) -> None:
        self.binary = binary

    @classmethod
    def from_node_modules(cls, node_modules: Path) -> Minifier:
        """The esbuild binary ``npm ci`` installed for this platform (run directly: the
        image that serves has no Node.js), or none."""
        system = {"windows": "win32"}.get(platform.system().lower(), platform.system().lower())
        machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64"}.get(
            platform.machine().lower(), platform.machine().lower())
        binary = node_modules / "@esbuild" / f"{system}-{machine}" / "bin" / "esbuild"
        if not binary.is_file():
            log.warning("no esbuild binary at %s: scripts and styles are sent unminified",
                        binary)
            return cls(None)
        return cls(binary)

    def minified(self, source: bytes, path: str) -> bytes | None:
        """``source`` (the content of the file at ``path``) minified, or None when it is not
        a script or style sheet, there is no esbuild, or esbuild refused it."""
        loader = MINIFIED_LOADERS.get(os.path.splitext(path)[1])
        binary = self.binary
        if loader is None or binary is None:
            return None
        try:
            done = subprocess.run(
                [str(binary), f"--loader={loader}", "--minify", "--charset=utf8",
                 "--log-level=error"], input=source, capture_output=True, timeout=30,
                check=False)
        except (OSError, subprocess.SubprocessError) as error:
            # A binary that cannot run here (another platform's, no exec permission) or
            # hangs: send every file as it is from now on, rather than fail every answer.
            log.error("esbuild cannot run (%s): scripts and styles are sent unminified", error)
            self.binary = None
            return None
        if done.returncode != 0:
            log.error("esbuild could not minify %s (sent as it is): %s", path,
                      done.stderr.decode(errors="replace").strip())
            return None
        return done.stdout or None


@dataclass(frozen=True)
class Prepared:
    """A static file as it is sent: the digest of its content, and for a text file its
    body (minified where it could be) in each coding."""

    digest: str
    encoded: Encoded | None
    minified: bool


class StaticAssets(StaticFiles):
    """Starlette's static files, with the caching described at the top of this module.
    With ``only``, just those paths (relative to the directory) are served; any other is
    a 404, as under ``/vendor``, where ``node_modules`` holds more than the pages use."""

    def __init__(self, fingerprints: Fingerprints, only: frozenset[str] | None = None,
                 minifier: Minifier | None = None) -> None:
        super().__init__(directory=fingerprints.directory)
        self.fingerprints = fingerprints
        self.only = only
        self.minifier = minifier
        self._prepared: dict[str, Prepared] = {}
        self._locks: dict[str, threading.Lock] = {}

    def prepared(self, full_path: str, stat: os.stat_result) -> Prepared:
        """The file as it is sent, made (minified, compressed) once per content and kept:
        one entry per file, replaced when the file changes."""
        digest = self.fingerprints.of_file(full_path, stat)
        known = self._prepared.get(full_path)
        if known is not None and known.digest == digest:
            return known
        if os.path.splitext(full_path)[1] not in COMPRESSED_SUFFIXES:
            return Prepared(digest, None, minified=False)
        # One thread makes a file while the others asking for it wait; other files are
        # made at the same time.
        with self._locks.setdefault(full_path, threading.Lock()):
            known = self._prepared.get(full_path)
            if known is not None and known.digest == digest:
                return known
            source = Path(full_path).read_bytes()
            digest = _digest(source)  # what was read, should it have changed since
            small = self.minifier.minified(source, full_path) if self.minifier else None
            made = Prepared(digest, Encoded.of(small or source), minified=small is not None)
            self._prepared[full_path] = made
        return made

    async def get_response(self, path: str, scope: Scope) -> Response:
        if self.only is not None and path not in self.only:
            raise HTTPException(status_code=404)
        # Made away from the event loop (esbuild is a subprocess, brotli 11 takes a few
        # milliseconds a file): answering it later only reads what is kept.
        try:
            full_path, stat = await run_in_threadpool(self.lookup_path, path)
        except (OSError, ValueError):  # a name no file can have: Starlette's own 404 below
            full_path, stat = "", None
        if stat is not None and S_ISREG(stat.st_mode):  # not a directory's
            await run_in_threadpool(self.prepared, full_path, stat)
        return await super().get_response(path, scope)

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        made = self.prepared(str(full_path), stat_result)
        asked = QueryParams(scope["query_string"]).get("v")
        cache_control = IMMUTABLE if asked == made.digest else REVALIDATE
        # The content's digest rather than Starlette's (of size and time): the same file
        # has the same tag on every server and after every deploy ("m": its minified form).
        etag = f'"{made.digest}m"' if made.minified else f'"{made.digest}"'
        if made.encoded is not None:
            media_type = mimetypes.guess_type(str(full_path))[0] or "text/plain"
            return made.encoded.response(Headers(scope=scope), media_type=media_type,
                                         etag=etag, cache_control=cache_control,
                                         status_code=status_code)
        response = FileResponse(full_path, status_code=status_code, stat_result=stat_result)
        # The content's ETag is the validator: a file time says less (it differs between
        # servers for the same file), and nobody asks for a range of a script.
        del response.headers["last-modified"]
        del response.headers["accept-ranges"]
        response.headers["etag"] = etag
        response.headers["cache-control"] = cache_control
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response


class CacheableJSON:
    """A JSON body that is the same for everyone until the server changes, encoded and
    compressed once, with the ETag of its content."""

    def __init__(self, content: Any) -> None:
        body = bytes(JSONResponse(content).body)
        self.encoded = Encoded.of(body)
        self.etag = f'"{_digest(body)}"'

    def response(self, request_headers: Headers) -> Response:
        return self.encoded.response(request_headers, media_type="application/json",
                                     etag=self.etag, cache_control=REVALIDATE)


class HeadAsGet:
    """``HEAD`` answered wherever ``GET`` is (RFC 9110: the same headers, no body): the
    request goes on as a ``GET``, and the body of its answer is dropped on the way out.
    An uptime checker's ``HEAD /`` then sees the page's 200, not a 405. Nothing is sent
    for the body but its end; ``Content-Length`` stays the ``GET``'s."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)
