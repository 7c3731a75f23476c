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
  that maps each module's plain URL to its fingerprinted one, so the browser fetches and
  caches them as it does the files the templates name; a browser without import maps
  asks for the plain URL and revalidates it.
- Browser libraries (Preact, htm) come from the npm registry (``package.json`` and its
  lockfile; ``npm ci`` puts them in ``node_modules``). :data:`VENDOR_MODULES` names the
  ES module files a page may import by bare specifier (``import { html } from
  "htm/preact"``); the import map sends each to its fingerprinted URL under ``/vendor``,
  and only those files are served there. Nothing is bundled or copied into ``static/``.
- Our scripts and style sheets are sent minified (:class:`Minifier`: esbuild from npm,
  each file on its own, no bundling; a third off our modules once compressed), made once
  per content and kept in memory. The files in ``static/`` stay the readable source;
  without the esbuild binary, or with ``DUEL_MINIFY_ASSETS=false``, they are sent as
  they are.
- JSON that is the same for everyone until a deploy (``/api/catalog``) is sent with
  :class:`CacheableJSON`: ``no-cache`` and an ETag of its content, a 304 when unchanged.
- The pages themselves are not cached (:data:`PAGE_HEADERS`): they carry the player.
"""

from __future__ import annotations

import hashlib
import logging
import mimetypes
import os
import platform
import subprocess
import threading
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, QueryParams
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope
from starlette_compress import CompressMiddleware

log = logging.getLogger(__name__)

IMMUTABLE = "public, max-age=31536000, immutable"
"""A fingerprinted URL's answer: its content never changes (a new content, a new URL)."""
REVALIDATE = "no-cache"
"""Any other cacheable answer: kept, but checked (its ETag) before each use."""
PAGE_HEADERS = {"Cache-Control": "private, no-cache"}
"""The HTML pages: they carry the player's identity, so no shared cache keeps them, and
they carry no validator, so the browser fetches them anew."""
DIGEST_CHARS = 16


def add_compression(app: FastAPI) -> None:
    """Compresses every answer of a text type (HTML, JS, CSS, JSON, SVG) of 500 bytes or more
    in brotli or gzip, as the client accepts (brotli first), adding ``Vary: Accept-Encoding``;
    other answers, 304s and WebSockets pass untouched.

    starlette-compress rather than Starlette's own GZipMiddleware: the same kind of small,
    maintained ASGI middleware, but it also speaks brotli, and it compresses by an allow-list
    of text types instead of everything but event streams. Its zstd is left off: browsers
    that accept zstd accept brotli too, and on our files brotli at quality 6 is smaller than
    zstd at a like cost. Quality 6 and gzip level 6 rather than the library's 4: a few
    percent smaller (board.js: 16.0 KB in brotli, 16.8 KB in gzip, against 17.5 KB at 4) for
    about a millisecond, paid once per browser and version, the files being cached."""
    app.add_middleware(CompressMiddleware, zstd=False, brotli_quality=6, gzip_level=6)


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

    def import_map(self, under: str = "js") -> dict[str, dict[str, str]]:
        """An import map sending each ES module under ``under`` from its plain URL (how the
        modules import one another) to its fingerprinted one."""
        modules = sorted(module.relative_to(self.directory).as_posix()
                         for module in (self.directory / under).rglob("*.js"))
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
    go, the meaning stays (each file alone, ES module syntax kept: no bundling). esbuild
    rather than a Python minifier: the ones on PyPI (rjsmin) break template literals,
    which every view of ours is written in."""

    def __init__(self, binary: Path | None) -> None:
        self.binary = binary
        self._known: dict[str, bytes] = {}
        self._lock = threading.Lock()

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

    def minified(self, path: str, digest: str) -> bytes | None:
        """The file at ``path`` (of content ``digest``) minified, or None when it is not a
        script or style sheet, there is no esbuild, or esbuild refused it."""
        loader = MINIFIED_LOADERS.get(os.path.splitext(path)[1])
        if loader is None or self.binary is None:
            return None
        key = f"{digest}:{loader}"
        with self._lock:
            if key not in self._known:
                source = Path(path).read_bytes()
                if _digest(source) != digest:
                    return None  # changed since it was read for its digest: the next answer
                self._known[key] = self._run(source, loader, path)
        body = self._known[key]
        return body or None

    async def prepare(self, path: str, digest: str) -> None:
        """Minifies ``path`` now, away from the event loop (esbuild is a subprocess), so
        that serving it later only reads the cache."""
        await run_in_threadpool(self.minified, path, digest)

    def _run(self, source: bytes, loader: str, path: str) -> bytes:
        binary = self.binary
        if binary is None:
            return b""
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
            return b""
        if done.returncode != 0:
            log.error("esbuild could not minify %s (sent as it is): %s", path,
                      done.stderr.decode(errors="replace").strip())
            return b""
        return done.stdout


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

    async def get_response(self, path: str, scope: Scope) -> Response:
        if self.only is not None and path not in self.only:
            return Response("Not Found", status_code=404, media_type="text/plain")
        if self.minifier is not None and os.path.splitext(path)[1] in MINIFIED_LOADERS:
            full_path, stat = await run_in_threadpool(self.lookup_path, path)
            if stat is not None and full_path:
                digest = self.fingerprints.of_file(full_path, stat)
                await self.minifier.prepare(full_path, digest)
        return await super().get_response(path, scope)

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        digest = self.fingerprints.of_file(str(full_path), stat_result)
        small = self.minifier.minified(str(full_path), digest) if self.minifier else None
        response: Response
        if small is not None:
            media_type = mimetypes.guess_type(str(full_path))[0] or "text/plain"
            response = Response(small, status_code=status_code, media_type=media_type)
        else:
            response = FileResponse(full_path, status_code=status_code, stat_result=stat_result)
            # The content's ETag is the validator: a file time says less (it differs
            # between servers for the same file), and nobody asks for a range of a script.
            del response.headers["last-modified"]
            del response.headers["accept-ranges"]
        # The content's digest rather than Starlette's (of size and time): the same file
        # has the same tag on every server and after every deploy ("m": its minified form).
        response.headers["etag"] = f'"{digest}m"' if small is not None else f'"{digest}"'
        asked = QueryParams(scope["query_string"]).get("v")
        response.headers["cache-control"] = IMMUTABLE if asked == digest else REVALIDATE
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response


class CacheableJSON:
    """A JSON body that is the same for everyone until the server changes, encoded once,
    with the ETag of its content."""

    def __init__(self, content: Any) -> None:
        self.body = bytes(JSONResponse(content).body)
        self.etag = f'"{_digest(self.body)}"'

    def response(self, request_headers: Headers) -> Response:
        headers = {"ETag": self.etag, "Cache-Control": REVALIDATE}
        if not_modified(request_headers, self.etag):
            return Response(status_code=304, headers=headers)
        return Response(self.body, media_type="application/json", headers=headers)
